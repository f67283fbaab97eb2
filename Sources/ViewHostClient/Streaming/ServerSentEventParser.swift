/// An incremental `text/event-stream` parser (HTML standard, §9.2.6 "Interpreting an event stream"): feed it
/// bytes as they arrive, in any split, and it returns the events completed so far. Comment lines (`:`) are
/// skipped, `retry:` updates ``retry``, an event without `data:` is not dispatched.
struct ServerSentEventParser: Sendable {
    /// The reconnection time the stream asked for (`retry:`), in milliseconds.
    private(set) var retry: Int?
    /// The last event ID (kept across events, as the standard says).
    private(set) var lastEventID: String?
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var event: String?
    private var data: [String] = []

    /// Parses `bytes`; returns the events they complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n"), lastWasCR {
                lastWasCR = false
                continue
            }
            lastWasCR = byte == UInt8(ascii: "\r")
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if let event = endLine() { events.append(event) }
            } else {
                line.append(byte)
            }
        }
        return events
    }

    /// Ends the current line: a field, a comment, or (blank) the dispatch of the event built so far.
    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        guard line.first != UInt8(ascii: ":") else { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let name: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            name = Substring(text)
            value = ""
        }
        switch name {
        case "event": event = String(value)
        case "data": data.append(String(value))
        case "id" where !value.contains("\0"): lastEventID = String(value)
        case "retry": if let milliseconds = Int(value), value.allSatisfy(\.isASCII) { retry = milliseconds }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            event = nil
            data.removeAll()
        }
        guard !data.isEmpty else { return nil }
        return ServerSentEvent(event: event, data: data.joined(separator: "\n"), id: lastEventID)
    }
}
