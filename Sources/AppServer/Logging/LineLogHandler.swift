import Foundation
public import HTTPCore
public import Logging
import ViewHostJSON

/// The server's log handler: one line per entry, as text or JSON (``LogFormat``), handed to a ``LogWriter`` so
/// the thread that logs (often an event loop) formats the line and never waits for the write.
///
/// ```swift
/// let writer = LogWriter(fd: STDERR_FILENO)
/// LoggingSystem.bootstrap { LineLogHandler(label: $0, format: .json, writer: writer) }
/// ```
///
/// Text: `2026-11-24T18:20:36.123Z info viewhost: refused request peer=10.0.0.7 status=429`. JSON:
/// `{"time":"2026-11-24T18:20:36.123Z","level":"info","logger":"viewhost","message":"refused request",…}` with
/// each metadata key as a member (after the four fixed ones, which it cannot replace); integer and number metadata
/// stay numbers.
public struct LineLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    /// The logger's label.
    public let label: String
    /// Text or JSON.
    public let format: LogFormat
    private let writer: LogWriter
    private let now: @Sendable () -> Date

    /// Creates a handler.
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - format: Text or JSON lines.
    ///   - writer: Where lines go.
    ///   - now: The wall clock for timestamps (fixed in tests).
    public init(label: String, format: LogFormat, writer: LogWriter, now: @escaping @Sendable () -> Date = { Date() }) {
        self.label = label
        self.format = format
        self.writer = writer
        self.now = now
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        writer.write(
            Self.line(
                format: format, time: now(), level: event.level, label: label, message: event.message.description,
                metadata: merged))
    }

    /// One formatted line, without its newline.
    /// - Parameters:
    ///   - format: Text or JSON.
    ///   - time: The entry's time.
    ///   - level: Its level.
    ///   - label: The logger's label.
    ///   - message: The message.
    ///   - metadata: Its metadata.
    /// - Returns: The line.
    public static func line(
        format: LogFormat, time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata
    ) -> String {
        let keys = metadata.keys.sorted()
        switch format {
        case .text:
            var line = "\(Self.timestamp(time)) \(level) \(label): \(message)"
            for key in keys {
                line += " \(key)=\(Self.textValue(metadata[key]!))"
            }
            return line
        case .json:
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("time")
            writer.string(Self.timestamp(time))
            writer.key("level")
            writer.string(level.rawValue)
            writer.key("logger")
            writer.string(label)
            writer.key("message")
            writer.string(message)
            for key in keys where !["time", "level", "logger", "message"].contains(key) {
                writer.key(key)
                Self.jsonValue(metadata[key]!, into: &writer)
            }
            writer.endObject()
            return String(decoding: writer.bytes, as: UTF8.self)
        }
    }

    /// RFC 3339 in UTC with milliseconds: `2026-11-24T18:20:36.123Z`.
    static func timestamp(_ date: Date) -> String {
        let total = Int64((date.timeIntervalSince1970 * 1000).rounded())  // whole milliseconds
        var seconds = time_t(total / 1000)
        let milliseconds = Int(total % 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds), 3))Z"
    }

    /// A value as `key=value` text: quoted (JSON-style) when it has a space, a quote, `=` or a control character.
    private static func textValue(_ value: Logger.Metadata.Value) -> String {
        let text = "\(value)"
        guard text.isEmpty || text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x22 || $0 == 0x3D || $0 == 0x5C })
        else { return text }
        var writer = JSONWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static func jsonValue(_ value: Logger.Metadata.Value, into writer: inout JSONWriter) {
        switch value {
        case .string(let text):
            writer.string(text)
        case .stringConvertible(let convertible):
            if let integer = convertible as? Int {
                writer.integer(integer)
            } else if let number = convertible as? Double, number.isFinite {
                writer.number(number)
            } else if let flag = convertible as? Bool {
                writer.boolean(flag)
            } else {
                writer.string(convertible.description)
            }
        case .array(let items):
            writer.beginArray()
            for item in items { jsonValue(item, into: &writer) }
            writer.endArray()
        case .dictionary(let members):
            writer.beginObject()
            for key in members.keys.sorted() {
                writer.key(key)
                jsonValue(members[key]!, into: &writer)
            }
            writer.endObject()
        }
    }
}
