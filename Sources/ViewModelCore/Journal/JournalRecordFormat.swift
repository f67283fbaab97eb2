import Foundation

/// The bytes a durable store keeps for one journal record (one ``SessionInput``): ViewHost's own format, documented
/// in docs/JOURNAL.md, versioned by its first byte, and readable without Swift's synthesized `Codable` shapes. The
/// feature's events inside stay the feature's own JSON (`StoredEvents`: a bare array at schema version 1, else
/// with the version), copied in as they are, not base64 inside JSON.
///
/// ```
/// version 1 (0x01) | kind | at: Float64 LE | fields of the kind
/// ```
///
/// Records written before this format (`{"submission":{…}}`, Swift's synthesized shape of ``SessionInput``) start
/// with `{` and are still read.
public enum JournalRecordFormat {
    /// The format this build writes.
    public static let version: UInt8 = 1

    /// Why bytes are not a journal record this build can read.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        /// A format newer than this build's (written by a newer ViewHost).
        case newerFormat(UInt8)
        /// The bytes end early, hold more than the record, or hold a value out of range.
        case malformed(String)

        /// One line naming the format version or what is malformed.
        public var description: String {
            switch self {
            case .newerFormat(let version):
                "journal record format \(version) is newer than this build reads (\(JournalRecordFormat.version))"
            case .malformed(let reason): "not a journal record: \(reason)"
            }
        }
    }

    private enum Kind: UInt8 {
        case submission = 1, events, timer, answer, delivery, introduction, acknowledgement
        /// A submission by a shared session's participant: a submission's fields, then the participant's id. (One
        /// by the owner is a plain submission, as every one written before.)
        case attributedSubmission
        /// What happened to a shared session's invitations or participants: the kind's code, then the id.
        case participation
    }

    /// A source's code (docs/JOURNAL.md): never renumbered. A switch, so a new source cannot be written without a
    /// code of its own.
    private static func code(of source: EventSource) -> UInt8 {
        switch source {
        case .client: 1
        case .timer: 2
        case .simulator: 3
        case .provider: 4
        case .view: 5
        case .session: 6
        }
    }

    /// The source with `code`, nil for a code no release wrote.
    private static func source(code: UInt8) -> EventSource? {
        [EventSource.client, .timer, .simulator, .provider, .view, .session].first { Self.code(of: $0) == code }
    }

    /// A delivery failure's code (docs/JOURNAL.md; 0 is none): never renumbered.
    private static func code(of failure: DeliveryFailure?) -> UInt8 {
        switch failure {
        case nil: 0
        case .ended: 1
        case .full: 2
        case .unknownAddress: 3
        }
    }

    /// The failure with `code`, nil for 0 (none) or a code no release wrote.
    private static func failure(code: UInt8) -> DeliveryFailure? {
        DeliveryFailure.allCases.first { Self.code(of: $0) == code }
    }

    /// `input` as a record.
    public static func encode(_ input: SessionInput) -> [UInt8] {
        var writer = RecordWriter()
        writer.byte(version)
        switch input {
        case .submission(let feature, let at, let events, let eventIDs, let key, let fingerprint, let participant):
            writer.byte(participant == nil ? Kind.submission.rawValue : Kind.attributedSubmission.rawValue)
            writer.date(at)
            writer.string(feature)
            writer.bytes(events)
            writer.unsigned(UInt64(eventIDs.count))
            for id in eventIDs { writer.optionalString(id) }
            writer.optionalString(key)
            writer.optionalString(fingerprint)
            if let participant { writer.string(participant) }
        case .events(let feature, let at, let source, let events):
            writer.byte(Kind.events.rawValue)
            writer.date(at)
            writer.string(feature)
            writer.byte(code(of: source))
            writer.bytes(events)
        case .timer(let id, let at):
            writer.byte(Kind.timer.rawValue)
            writer.date(at)
            writer.signed(id)
        case .answer(let feature, let at, let request, let events):
            writer.byte(Kind.answer.rawValue)
            writer.date(at)
            writer.string(feature)
            writer.signed(request)
            writer.bytes(events)
        case .delivery(let feature, let at, let from, let number, let introduction, let events):
            writer.byte(Kind.delivery.rawValue)
            writer.date(at)
            writer.string(feature)
            writer.string(from.rawValue)
            writer.signed(number)
            writer.optionalString(introduction)
            writer.bytes(events)
        case .introduction(let feature, let at, let contact, let name, let introducing):
            writer.byte(Kind.introduction.rawValue)
            writer.date(at)
            writer.string(feature)
            writer.string(contact.rawValue)
            writer.string(name)
            writer.string(introducing)
        case .acknowledgement(let feature, let at, let to, let through, let failure):
            writer.byte(Kind.acknowledgement.rawValue)
            writer.date(at)
            writer.string(feature)
            writer.string(to.rawValue)
            writer.signed(through)
            writer.byte(code(of: failure))
        case .participation(let at, let kind, let id):
            writer.byte(Kind.participation.rawValue)
            writer.date(at)
            writer.byte(kind.code)
            writer.string(id)
        }
        return writer.output
    }

    /// The input a record holds, in this format or the one before it (JSON, starting with `{`).
    /// - Throws: ``ReadError``, or the decoder's error for a record of the format before.
    public static func decode(_ record: some Collection<UInt8>) throws -> SessionInput {
        guard let first = record.first else { throw ReadError.malformed("it is empty") }
        if first == UInt8(ascii: "{") { return try SessionInput.stored(Data(record)) }
        guard first == version else {
            throw first > version ? ReadError.newerFormat(first) : ReadError.malformed("format \(first)")
        }
        return try Array(record).withUnsafeBytes { buffer throws(ReadError) -> SessionInput in
            var reader = RecordReader(buffer, at: 1)
            let input = try read(&reader)
            guard reader.isAtEnd else { throw .malformed("\(buffer.count - reader.offset) bytes after its end") }
            return input
        }
    }

    private static func read(_ reader: inout RecordReader) throws(ReadError) -> SessionInput {
        let code = try reader.byte()
        guard let kind = Kind(rawValue: code) else { throw .malformed("kind \(code)") }
        let at = try reader.date()
        switch kind {
        case .submission, .attributedSubmission:
            let feature = try reader.string()
            let events = try reader.bytes()
            let count = try reader.count()
            var ids: [String?] = []
            ids.reserveCapacity(count)
            for _ in 0..<count { ids.append(try reader.optionalString()) }
            let key = try reader.optionalString()
            let fingerprint = try reader.optionalString()
            return .submission(
                feature: feature, at: at, events: events, eventIDs: ids, key: key, fingerprint: fingerprint,
                participant: kind == .attributedSubmission ? try reader.string() : nil)
        case .events:
            let feature = try reader.string()
            let code = try reader.byte()
            guard let source = source(code: code) else { throw .malformed("source \(code)") }
            return .events(feature: feature, at: at, source: source, events: try reader.bytes())
        case .timer:
            return .timer(id: try reader.signed(), at: at)
        case .answer:
            let feature = try reader.string()
            let request = try reader.signed()
            return .answer(feature: feature, at: at, request: request, events: try reader.bytes())
        case .delivery:
            let feature = try reader.string()
            let from = ContactAddress(try reader.string())
            let number = try reader.signed()
            let introduction = try reader.optionalString()
            return .delivery(
                feature: feature, at: at, from: from, number: number, introduction: introduction,
                events: try reader.bytes())
        case .introduction:
            let feature = try reader.string()
            let contact = ContactAddress(try reader.string())
            let name = try reader.string()
            return .introduction(
                feature: feature, at: at, contact: contact, name: name, introducing: try reader.string())
        case .acknowledgement:
            let feature = try reader.string()
            let to = ContactAddress(try reader.string())
            let through = try reader.signed()
            let code = try reader.byte()
            guard code == 0 || failure(code: code) != nil else { throw .malformed("delivery failure \(code)") }
            return .acknowledgement(feature: feature, at: at, to: to, through: through, failure: failure(code: code))
        case .participation:
            let code = try reader.byte()
            guard let kind = Participation(code: code) else { throw .malformed("participation \(code)") }
            return .participation(at: at, kind: kind, id: try reader.string())
        }
    }
}

/// Appends a record's fields: bytes, LEB128 varints, little-endian doubles, length-prefixed strings.
private struct RecordWriter {
    var output: [UInt8] = []

    init() {
        output.reserveCapacity(64)
    }

    mutating func byte(_ value: UInt8) {
        output.append(value)
    }

    mutating func unsigned(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            output.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        output.append(UInt8(rest))
    }

    /// A number as its two's complement bit pattern (ids are never negative; one that were would still come back).
    mutating func signed(_ value: Int) {
        unsigned(UInt64(bitPattern: Int64(value)))
    }

    mutating func date(_ date: Date) {
        withUnsafeBytes(of: date.timeIntervalSinceReferenceDate.bitPattern.littleEndian) { output += $0 }
    }

    mutating func bytes(_ bytes: some Collection<UInt8>) {
        unsigned(UInt64(bytes.count))
        output += bytes
    }

    mutating func string(_ text: String) {
        bytes(text.utf8)
    }

    /// 0 for none, else the length plus one.
    mutating func optionalString(_ text: String?) {
        guard let text else {
            output.append(0)
            return
        }
        unsigned(UInt64(text.utf8.count) + 1)
        output += text.utf8
    }
}

/// Reads what ``RecordWriter`` wrote, refusing a record that ends early.
private struct RecordReader {
    let buffer: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ buffer: UnsafeRawBufferPointer, at offset: Int) {
        self.buffer = buffer
        self.offset = offset
    }

    var isAtEnd: Bool { offset == buffer.count }

    mutating func byte() throws(JournalRecordFormat.ReadError) -> UInt8 {
        guard offset < buffer.count else { throw .malformed("it ends early") }
        defer { offset += 1 }
        return buffer[offset]
    }

    mutating func unsigned() throws(JournalRecordFormat.ReadError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw .malformed("a number longer than 64 bits") }
            value |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return value }
            shift += 7
        }
    }

    mutating func signed() throws(JournalRecordFormat.ReadError) -> Int {
        Int(Int64(bitPattern: try unsigned()))
    }

    /// A length or a count, at most what is left of the record.
    mutating func count() throws(JournalRecordFormat.ReadError) -> Int {
        let value = try unsigned()
        guard value <= UInt64(buffer.count - offset) else { throw .malformed("a length past its end") }
        return Int(value)
    }

    mutating func date() throws(JournalRecordFormat.ReadError) -> Date {
        guard offset + 8 <= buffer.count else { throw .malformed("it ends early") }
        var bits: UInt64 = 0
        for index in (0..<8).reversed() { bits = bits << 8 | UInt64(buffer[offset + index]) }
        offset += 8
        return Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
    }

    mutating func bytes() throws(JournalRecordFormat.ReadError) -> Data {
        let length = try count()
        defer { offset += length }
        return Data(buffer[offset..<(offset + length)])
    }

    mutating func string() throws(JournalRecordFormat.ReadError) -> String {
        let length = try count()
        defer { offset += length }
        return String(decoding: buffer[offset..<(offset + length)], as: UTF8.self)
    }

    mutating func optionalString() throws(JournalRecordFormat.ReadError) -> String? {
        let marker = try unsigned()
        guard marker > 0 else { return nil }
        guard marker - 1 <= UInt64(buffer.count - offset) else { throw .malformed("a length past its end") }
        let length = Int(marker - 1)
        defer { offset += length }
        return String(decoding: buffer[offset..<(offset + length)], as: UTF8.self)
    }
}
