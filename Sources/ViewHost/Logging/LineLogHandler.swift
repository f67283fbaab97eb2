import Foundation
public import HTTPCore
public import Logging
import ViewHostJSON

/// The server's log handler: one line per entry, as text or JSON (``LogFormat``), handed to a `LogWriter` so
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
    /// The lowest level written; `info` unless the configuration says otherwise.
    public var logLevel: Logger.Level = .info
    /// Metadata written with every line of this logger, under the entry's own.
    public var metadata: Logger.Metadata = [:]
    /// Metadata taken at each log call (swift-log's provider, such as a task-local trace id), over the handler's
    /// and under the entry's own.
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

    /// The handler's metadata value under `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Formats the entry as one line (``line(format:time:level:label:message:metadata:)``) and hands it to the writer,
    /// which writes it on its own thread; the entry's metadata wins over the provider's, which wins over the handler's.
    public func log(event: LogEvent) {
        // The common case (no handler metadata, no provider) takes the entry's metadata as it is: no merge copy.
        var merged = event.metadata ?? [:]
        if !metadata.isEmpty || metadataProvider != nil {
            merged = metadata
            if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
            if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        }
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
        // Sorted once as pairs: no second lookup per key. The line is built as bytes (the access log formats one
        // per request on an event loop, so what it allocates counts).
        let entries = metadata.sorted { $0.key < $1.key }
        switch format {
        case .text:
            var line: [UInt8] = []
            line.reserveCapacity(96 + 32 * entries.count)
            appendTimestamp(time, to: &line)
            line.append(0x20)
            line.append(contentsOf: level.rawValue.utf8)
            line.append(0x20)
            line.append(contentsOf: label.utf8)
            line.append(contentsOf: ": ".utf8)
            line.append(contentsOf: message.utf8)
            for (key, value) in entries {
                line.append(0x20)
                line.append(contentsOf: key.utf8)
                line.append(UInt8(ascii: "="))
                appendText(value, to: &line)
            }
            return String(decoding: line, as: UTF8.self)
        case .json:
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("time")
            writer.string(timestamp(time))
            writer.key("level")
            writer.string(level.rawValue)
            writer.key("logger")
            writer.string(label)
            writer.key("message")
            writer.string(message)
            for (key, value) in entries where !fixedJSONKeys.contains(key) {
                writer.key(key)
                jsonValue(value, into: &writer)
            }
            writer.endObject()
            return String(decoding: writer.bytes, as: UTF8.self)
        }
    }

    /// The members every JSON line starts with; metadata cannot replace them.
    private static let fixedJSONKeys: Set<String> = ["time", "level", "logger", "message"]

    /// RFC 3339 in UTC with milliseconds: `2026-11-24T18:20:36.123Z`.
    static func timestamp(_ date: Date) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(24)
        appendTimestamp(date, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends ``timestamp(_:)``'s text, digit by digit (no intermediate strings).
    static func appendTimestamp(_ date: Date, to bytes: inout [UInt8]) {
        let total = Int64((date.timeIntervalSince1970 * 1000).rounded())  // whole milliseconds
        var seconds = time_t(total / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2)
        bytes.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2)
        bytes.append(UInt8(ascii: "."))
        digits(Int(total % 1000), 3)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Appends a value as `key=value` text: quoted (JSON-style) when it is empty or has a space, a control
    /// character, a quote, `=` or a backslash.
    private static func appendText(_ value: Logger.Metadata.Value, to bytes: inout [UInt8]) {
        let text: String =
            switch value {
            case .string(let text): text
            case .stringConvertible(let convertible as Int): String(convertible)
            default: "\(value)"
            }
        guard text.isEmpty || text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x22 || $0 == 0x3D || $0 == 0x5C })
        else {
            bytes.append(contentsOf: text.utf8)
            return
        }
        var writer = JSONWriter()
        writer.string(text)
        bytes.append(contentsOf: writer.bytes)
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
