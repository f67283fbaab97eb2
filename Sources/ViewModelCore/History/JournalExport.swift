import Foundation
import ViewHostAPI
import ViewHostCrypto
import ViewHostJSON

/// A session's history as a file of its own, one JSON object per line (NDJSON): a header with the session's whole
/// value at the oldest point held, one line per journal input after it, and an end line. Replaying the inputs on
/// the header's value reaches every version the session served, byte for byte; ``JournalImport`` reads it back and
/// checks that it does. The format is public and stable (docs/JOURNAL-EXPORT.md); this version writes format 1.
///
/// ```text
/// {"base":{…},"baseNumber":0,"createdAt":"…","exportedAt":"…","features":["chat"],"format":"viewhost-journal","formatVersion":1,"session":"…"}
/// {"number":1,"kind":"events","time":"2026-11-24T10:00:00.000Z","at":785671200,"feature":"chat","source":"view","sequence":1,"versionAfter":2,"causedBy":null,"schema":1,"events":[…]}
/// {"digest":"…","end":true,"number":1,"records":1,"sequence":1,"snapshots":"…","versions":{"chat":2}}
/// ```
public enum JournalExport {
    /// The header's `format`.
    public static let format = "viewhost-journal"
    /// The format version this build writes and reads.
    public static let formatVersion = 1
    /// The media type of an export (and of an import's body).
    public static let mediaType = "application/x-ndjson"

    /// `time`: RFC 3339 with milliseconds, for people (`at` is the exact instant).
    static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The header line: the format, the session's id and times, its features, and its whole value after record
    /// `number` (the oldest checkpoint held).
    static func header(
        session: SessionID, createdAt: Date?, exportedAt: Date, base: SessionCore, number: Int
    ) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let value = try encoder.encode(base)
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("base")
        writer.raw(value)
        writer.key("baseNumber")
        writer.integer(number)
        writer.key("createdAt")
        if let createdAt { writer.string(createdAt.formatted(timeStyle)) } else { writer.null() }
        writer.key("exportedAt")
        writer.string(exportedAt.formatted(timeStyle))
        writer.key("features")
        writer.beginArray()
        for name in base.featureNames { writer.string(name) }
        writer.endArray()
        writer.key("format")
        writer.string(format)
        writer.key("formatVersion")
        writer.integer(formatVersion)
        writer.key("session")
        writer.string(session.rawValue)
        writer.endObject()
        return writer.bytes + [UInt8(ascii: "\n")]
    }

    /// The digest the end line carries: SHA-256 over every feature's name and snapshot (sorted-key JSON), in the
    /// session's order. Equal digests mean every feature ends showing the same thing.
    /// - Throws: ``UnstorableValue`` when a feature's snapshot cannot be encoded.
    static func snapshotDigest(of core: SessionCore) throws(UnstorableValue) -> String {
        var bytes: [UInt8] = []
        for name in core.featureNames {
            guard let (_, viewModel) = core.snapshot(of: name) else { continue }
            do {
                bytes += Array(name.utf8) + [0x0A] + (try StoredJSON.bytes(of: viewModel)) + [0x0A]
            } catch {
                throw UnstorableValue(error, feature: name, in: "snapshot")
            }
        }
        return Digest.hex(Digest.sha256(bytes))
    }

    /// The digest of the lines so far, `previous`, and one more, `line` (without its newline): SHA-256 over the
    /// two, so the end line's `digest` covers every byte before it.
    static func chained(_ previous: [UInt8], _ line: some Collection<UInt8>) -> [UInt8] {
        Digest.sha256(previous, Array(line))
    }

    /// A journal's events (a bare array at schema version 1, else `{"schema":N,"events":[…]}`) as the schema
    /// version and the array's text.
    static func split(events data: Data) -> (schema: Int, events: [UInt8]) {
        let bytes = [UInt8](data)
        guard bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D }) == UInt8(ascii: "{"),
            let members = try? JSONParser.members(ofObject: bytes, maxDepth: 256),
            let events = members.first(where: { $0.name == "events" }),
            case .number(let schema)? = members.first(where: { $0.name == "schema" })?.value
        else { return (1, bytes) }
        return (Int(schema), Array(bytes[events.range]))
    }
}

/// Writes an export: its header, then each journal record replayed on the value before it, so its line says what
/// it did (the sequence number and version it reached, what caused it), then the end line, whose `digest` chains
/// every line before it (an edit anywhere is found).
public struct JournalExportWriter: Sendable {
    /// The header line, newline included.
    public let header: [UInt8]
    private var cursor: HistoryCursor
    private var written = 0
    private var digest: [UInt8]

    /// A writer for session `session`'s history from `base`, its whole value after record `number` (the oldest
    /// checkpoint held).
    /// - Throws: When the value does not encode (a feature's state that is not JSON).
    public init(session: SessionID, createdAt: Date?, exportedAt: Date, base: SessionCore, number: Int) throws {
        header = try JournalExport.header(
            session: session, createdAt: createdAt, exportedAt: exportedAt, base: base, number: number)
        digest = JournalExport.chained([], header.dropLast())
        cursor = HistoryCursor(core: base, number: number)
    }

    /// The line of `record`, the next one, newline included; `decoded`: its events decoded ahead
    /// (``SessionCore/decodedAhead(_:)``), if they were.
    /// - Throws: ``HistoryError`` when the record is not the next one or does not replay.
    public mutating func line(for record: JournalRecord, decoded: DecodedEvents? = nil) throws(HistoryError) -> [UInt8]
    {
        // Scalars of the value before, not a copy of it (a copy kept across the replay would make it copy the log).
        let sequenceBefore = cursor.core.sequence
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("number")
        writer.integer(record.number)
        let input = record.input
        let feature: String?
        let source: EventSource
        let events: Data?
        switch input {
        case .submission(let name, _, let data, _, _, _, _):
            (feature, source, events) = (name, .client, data)
        case .events(let name, _, let from, let data):
            (feature, source, events) = (name, from, data)
        case .timer(let id, _):
            let timer: (feature: String, source: EventSource, events: Data)?
            do throws(UnstorableValue) {
                timer = try cursor.core.pendingTimer(id)
            } catch {
                throw .unreadable(number: record.number, reason: error.description)
            }
            (feature, source, events) = (timer?.feature, timer?.source ?? .timer, timer?.events)
        case .answer(let name, _, _, let data):
            (feature, source, events) = (name, .provider, data)
        case .delivery(let name, _, _, _, let introduction, let data):
            (feature, source, events) = (name, .session, introduction == nil ? data : nil)
        case .introduction(let name, _, _, _, _), .acknowledgement(let name, _, _, _, _):
            (feature, source, events) = (name, .session, nil)
        case .participation:
            (feature, source, events) = (nil, .client, nil)
        }
        writer.key("kind")
        writer.string(input.kind)
        writer.key("time")
        writer.string(input.at.formatted(JournalExport.timeStyle))
        writer.key("at")
        writer.number(input.at.timeIntervalSinceReferenceDate)
        writer.key("feature")
        if let feature { writer.string(feature) } else { writer.null() }
        writer.key("source")
        writer.string(source.rawValue)
        try cursor.apply(record, decoded: decoded, observe: nil)
        let after = cursor.core
        writer.key("sequence")
        writer.integer(after.sequence)
        writer.key("versionAfter")
        if let version = feature.flatMap(after.version(of:)) { writer.integer(version) } else { writer.null() }
        writer.key("causedBy")
        if let cause = after.log.entry(sequence: sequenceBefore + 1)?.causedBy {
            writer.integer(cause)
        } else {
            writer.null()
        }
        let (schema, eventsJSON) = events.map(JournalExport.split(events:)) ?? (1, Array("[]".utf8))
        writer.key("schema")
        writer.integer(schema)
        writer.key("events")
        writer.raw(eventsJSON)
        switch input {
        case .submission(_, _, _, let eventIDs, let key, let fingerprint, let participant):
            if let participant {
                // Only on a shared session's participant's submission: others' lines are as before.
                writer.key("participant")
                writer.string(participant)
            }
            writer.key("eventIds")
            writer.beginArray()
            for id in eventIDs { if let id { writer.string(id) } else { writer.null() } }
            writer.endArray()
            writer.key("idempotencyKey")
            if let key { writer.string(key) } else { writer.null() }
            writer.key("fingerprint")
            if let fingerprint { writer.string(fingerprint) } else { writer.null() }
        case .timer(let id, _):
            writer.key("timer")
            writer.integer(id)
        case .answer(_, _, let request, _):
            writer.key("request")
            writer.integer(request)
        case .delivery(_, _, let from, let number, let introduction, _):
            writer.key("contact")
            writer.string(from.rawValue)
            writer.key("delivery")
            writer.integer(number)
            writer.key("introduction")
            if let introduction { writer.string(introduction) } else { writer.null() }
        case .introduction(_, _, let contact, let name, let introducing):
            writer.key("contact")
            writer.string(contact.rawValue)
            writer.key("name")
            writer.string(name)
            writer.key("introducing")
            writer.string(introducing)
        case .acknowledgement(_, _, let to, let through, let failure):
            writer.key("contact")
            writer.string(to.rawValue)
            writer.key("through")
            writer.integer(through)
            writer.key("failure")
            if let failure { writer.string(failure.rawValue) } else { writer.null() }
        case .participation(_, let kind, let id):
            writer.key("participation")
            writer.string(kind.rawValue)
            writer.key("id")
            writer.string(id)
        case .events:
            break
        }
        writer.endObject()
        written += 1
        digest = JournalExport.chained(digest, writer.bytes)
        return writer.bytes + [UInt8(ascii: "\n")]
    }

    /// The end line: the digest of every line before it, how many records were written, the last number and
    /// sequence, every feature's version, and the digest of every feature's snapshot.
    /// - Throws: ``UnstorableValue`` when a feature's snapshot cannot be encoded (the export then ends without its
    ///   end line, and reads as cut short).
    public func end() throws(UnstorableValue) -> [UInt8] {
        let core = cursor.core
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("digest")
        writer.string(Digest.hex(digest))
        writer.key("end")
        writer.boolean(true)
        writer.key("number")
        writer.integer(cursor.number)
        writer.key("records")
        writer.integer(written)
        writer.key("sequence")
        writer.integer(core.sequence)
        writer.key("snapshots")
        writer.string(try JournalExport.snapshotDigest(of: core))
        writer.key("versions")
        writer.beginObject()
        for (name, version) in core.versions.sorted(by: { $0.key < $1.key }) {
            writer.key(name)
            writer.integer(version)
        }
        writer.endObject()
        writer.endObject()
        return writer.bytes + [UInt8(ascii: "\n")]
    }

    /// The value after the last record written.
    public var core: SessionCore { cursor.core }

    /// The number of the last record written (the header's when none was).
    public var number: Int { cursor.number }
}

extension SessionInput {
    /// The export's `kind`: `submission`, `events`, `timer`, `answer`, `delivery`, `introduction`,
    /// `acknowledgement` or `participation`.
    public var kind: String {
        switch self {
        case .submission: "submission"
        case .events: "events"
        case .timer: "timer"
        case .answer: "answer"
        case .delivery: "delivery"
        case .introduction: "introduction"
        case .acknowledgement: "acknowledgement"
        case .participation: "participation"
        }
    }
}
