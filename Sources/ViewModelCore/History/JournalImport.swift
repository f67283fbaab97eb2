import Foundation
import ViewHostAPI
import ViewHostCrypto
import ViewHostJSON
import ViewHostLocking

/// Reads a journal export (``JournalExport``) back, replaying every input on the header's value and checking each
/// line against what the replay did: its number follows the one before, and the sequence number, version, cause
/// and source it states are the ones the replay reached; the end line's counts and versions too, and its digest of
/// every line before it (so a change anywhere, even one the replay cannot see, is found).
///
/// An export is untrusted input: anyone can write one, and its digest (unkeyed SHA-256) detects accidents, not
/// forgery. So the header's value is held to what a live session could be (``SessionCore/problem(times:)``: settings
/// within the server's ranges, bounded counters and collections, each feature's state accepted by the feature), every
/// record's events are accepted by their feature (``Feature/validate(event:)``), and every instant falls between the
/// session's creation and the import, ``allowedClockSkew`` either side. Stored states and events of an older schema
/// are migrated as a store's are, and every version is rendered again by this build: an export made before a
/// snapshot gained a field imports, and serves the field.
public enum JournalImport {
    /// The deepest nesting of arrays and objects a line may have.
    public static let maxDepth = 256
    /// How far an export's instants may lie before its session's creation or after the import, in seconds: the
    /// clock skew between the server that wrote it and the one that reads it (5 minutes).
    public static let allowedClockSkew: TimeInterval = 300

    /// Reads `bytes`, an export, with the feature types it is decoded with.
    /// - Parameters:
    ///   - bytes: The export, as `GET /v1/sessions/{id}/journal` wrote it.
    ///   - types: The types of the features it holds (the app's).
    ///   - now: The instant of the import: nothing in the export may lie after it (beyond ``allowedClockSkew``).
    ///   - checkpointEvery: The value after every this many records is kept in the result's `checkpoints` (the
    ///     snapshots a store keeps with them).
    ///   - observe: Told of every version of each feature, as it is made: the record's number, the feature, its
    ///     version and its view model (nil: nobody asks); first of each feature's version in the header's value
    ///     (with the header's record number).
    /// - Returns: The export read back and replayed.
    /// - Throws: ``JournalImportError`` naming the line.
    public static func read(
        _ bytes: [UInt8], types: FeatureTypes, now: Date, checkpointEvery: Int = Session.snapshotInterval,
        observe: ((_ number: Int, _ feature: String, _ version: Int, _ viewModel: any ViewModel) -> Void)? = nil
    ) throws(JournalImportError) -> ImportedJournal {
        var lines = Lines(bytes)
        guard let first = lines.next() else { throw JournalImportError(line: 1, reason: "the journal is empty") }
        let header = try Header.read(first.bytes, line: first.number, types: types, now: now)
        if let observe {
            for name in header.base.featureNames {
                guard let (version, viewModel) = header.base.snapshot(of: name) else { continue }
                observe(header.baseNumber, name, version, viewModel)
            }
        }
        var reader = Reader(
            cursor: HistoryCursor(core: header.base, number: header.baseNumber), checkpointEvery: checkpointEvery,
            observe: observe, times: header.times, digest: JournalExport.chained([], first.bytes))
        // The next lines are parsed and their events decoded on another thread while these are replayed and
        // checked; when the part needed next is still being prepared there, this thread prepares a later one
        // meanwhile (``SharedParts``).
        var rest = lines
        let base = header.base
        let source = SharedParts<[(number: Int, bytes: [UInt8])], [Prepared]>(
            claim: {
                var taken: [(number: Int, bytes: [UInt8])] = []
                taken.reserveCapacity(Prepared.part)
                while taken.count < Prepared.part, let line = rest.next() { taken.append(line) }
                return taken.isEmpty ? nil : taken
            },
            prepare: { Prepared.prepare($0, base: base) })
        var last = first.number
        var prepared: [Prepared] = []
        var index = 0
        func nextLine() -> Prepared? {
            if index == prepared.count {
                let done = prepared
                prepared = []
                guard let part = source.next(returning: consume done) else { return nil }
                (prepared, index) = (part, 0)
            }
            index += 1
            return prepared[index - 1]
        }
        while let line = nextLine() {
            last = line.number
            let members: [(name: String, value: JSONValue, range: Range<Int>)]
            do {
                members = try line.members.get()
            } catch {
                throw JournalImportError(line: line.number, reason: "not a JSON object: \(error)")
            }
            if members.contains(where: { $0.name == "end" }) {
                try reader.end(Fields(members, line: line.number))
                guard nextLine() == nil else {
                    throw JournalImportError(line: line.number + 1, reason: "nothing may follow the end line")
                }
                return ImportedJournal(
                    exportedSession: header.session, createdAt: header.createdAt, baseNumber: header.baseNumber,
                    base: header.base, records: reader.records, checkpoints: reader.checkpoints,
                    final: reader.cursor.core)
            }
            try reader.apply(Fields(members, line: line.number), bytes: line.bytes, ahead: line)
            reader.digest = JournalExport.chained(reader.digest, line.bytes)
        }
        throw JournalImportError(line: last, reason: "the journal ends without its end line: it was cut short")
    }

    /// A line read ahead of its turn: its members (or why it is not a JSON object), its events decoded, and the
    /// text of its instant (`at`) as its `time` must read.
    private struct Prepared: Sendable {
        let number: Int
        let bytes: [UInt8]
        let members: Result<[(name: String, value: JSONValue, range: Range<Int>)], JSONParser.Failure>
        let decoded: DecodedEvents?
        let time: String?

        /// Lines read at a time.
        static let part = 128

        /// `lines`, prepared with `base`'s features (events decoded with them). A line that does not read carries
        /// its failure to its turn (so the first line that fails is the one named).
        static func prepare(_ lines: [(number: Int, bytes: [UInt8])], base: SessionCore) -> [Prepared] {
            lines.map { line in
                let members = Result { () throws(JSONParser.Failure) in
                    try JSONParser.members(ofObject: line.bytes, maxDepth: JournalImport.maxDepth)
                }
                var decoded: DecodedEvents?
                var time: String?
                if case .success(let members) = members {
                    let fields = Fields(members, line: line.number)
                    // Only an instant of the years 1 to 9999 is formatted (the line is refused for its instant anyway).
                    if case .number(let seconds)? = fields.value("at"), seconds.isFinite, abs(seconds) < 2.5e11 {
                        time = Date(timeIntervalSinceReferenceDate: seconds).formatted(JournalExport.timeStyle)
                    }
                    if (try? fields.string("kind")) != "timer", let feature = try? fields.string("feature"),
                        let data = try? Reader.eventsData(fields, bytes: line.bytes),
                        let array = fields.value("events"),
                        let schema = try? fields.integer("schema")
                    {
                        // The events as their stored text parses, from the line's parse.
                        decoded = base.decodedAhead(
                            data, parsed: StoredEventsShape.value(array: array, schema: schema), of: feature)
                    }
                }
                return Prepared(number: line.number, bytes: line.bytes, members: members, decoded: decoded, time: time)
            }
        }
    }

    /// The id of the session an export was made from, as its header names it (nil when the first line does not).
    public static func exportedSession(of bytes: [UInt8]) -> String? {
        var lines = Lines(bytes)
        guard let first = lines.next(),
            let members = try? JSONParser.members(ofObject: first.bytes, maxDepth: maxDepth),
            case .string(let id)? = members.first(where: { $0.name == "session" })?.value
        else { return nil }
        return id
    }

    /// The header line.
    private struct Header: Decodable {
        let format: String
        let formatVersion: Int
        let session: String
        let createdAt: String?
        let features: [String]
        let baseNumber: Int
        let base: SessionCore

        var createdAtDate: Date? { createdAt.flatMap { try? Date($0, strategy: JournalExport.timeStyle) } }

        /// Reads and checks the header, whose value must be one a live session could be, made at `createdAt` and
        /// read at `now`.
        static func read(_ bytes: [UInt8], line: Int, types: FeatureTypes, now: Date) throws(JournalImportError) -> (
            session: String, createdAt: Date?, baseNumber: Int, base: SessionCore, times: ClosedRange<Date>
        ) {
            // Foundation's decoder: the value holds 64-bit random state, which a Double would round.
            struct Probe: Decodable {
                let format: String?
                let formatVersion: Int?
            }
            let probe = try? JSONDecoder().decode(Probe.self, from: Data(bytes))
            guard probe?.format == JournalExport.format else {
                throw JournalImportError(
                    line: line,
                    reason: "not the header of a ViewHost journal export (format \"\(JournalExport.format)\")")
            }
            guard probe?.formatVersion == JournalExport.formatVersion else {
                throw JournalImportError(
                    line: line,
                    reason:
                        "format version \(probe?.formatVersion.map(String.init) ?? "?") is not one this server reads (\(JournalExport.formatVersion))"
                )
            }
            let decoder = types.jsonDecoder()
            let header: Header
            do {
                header = try decoder.decode(Header.self, from: Data(bytes))
            } catch {
                throw JournalImportError(
                    line: line, reason: "the header does not decode: \(JournalImportError.describe(error))")
            }
            guard header.features == header.base.featureNames else {
                throw JournalImportError(
                    line: line, reason: "its features (\(header.features.joined(separator: ", "))) are not its value's")
            }
            guard (0...SessionCore.maxCounter).contains(header.baseNumber) else {
                throw JournalImportError(line: line, reason: "baseNumber must be 0 to \(SessionCore.maxCounter)")
            }
            let latest = now.addingTimeInterval(JournalImport.allowedClockSkew)
            let earliest = header.createdAtDate?.addingTimeInterval(-JournalImport.allowedClockSkew) ?? .distantPast
            guard earliest <= latest else {
                throw JournalImportError(
                    line: line,
                    reason: "createdAt lies after the import (more than the 5 minutes of clock skew allowed)")
            }
            let times = earliest...latest
            if let problem = header.base.problem(times: times) {
                throw JournalImportError(line: line, reason: "base.\(problem)")
            }
            return (header.session, header.createdAtDate, header.baseNumber, header.base, times)
        }
    }

    /// One line's members, read with the line's number for errors.
    private struct Fields {
        let members: [(name: String, value: JSONValue, range: Range<Int>)]
        let line: Int

        init(_ members: [(name: String, value: JSONValue, range: Range<Int>)], line: Int) {
            self.members = members
            self.line = line
        }

        func fail(_ reason: String) -> JournalImportError {
            JournalImportError(line: line, reason: reason)
        }

        func value(_ name: String) -> JSONValue? {
            members.first { $0.name == name }?.value
        }

        func range(_ name: String) -> Range<Int>? {
            members.first { $0.name == name }?.range
        }

        func integer(_ name: String) throws(JournalImportError) -> Int {
            guard let value = try optionalInteger(name) else { throw fail("'\(name)' must be an integer") }
            return value
        }

        func optionalInteger(_ name: String) throws(JournalImportError) -> Int? {
            switch value(name) {
            case nil, .null?: return nil
            case .number(let number)? where number == number.rounded() && abs(number) < 9e15: return Int(number)
            default: throw fail("'\(name)' must be an integer")
            }
        }

        func string(_ name: String) throws(JournalImportError) -> String {
            guard let value = try optionalString(name) else { throw fail("'\(name)' must be a string") }
            return value
        }

        func optionalString(_ name: String) throws(JournalImportError) -> String? {
            switch value(name) {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw fail("'\(name)' must be a string")
            }
        }
    }

    /// Replays the lines in order, checking each.
    private struct Reader {
        var cursor: HistoryCursor
        let checkpointEvery: Int
        let observe: ((Int, String, Int, any ViewModel) -> Void)?
        /// When an input may have been applied: from the session's creation to the import, with the clock skew.
        let times: ClosedRange<Date>
        /// The digest of the lines read so far, chained as the writer chains it.
        var digest: [UInt8]
        var records: [JournalRecord] = []
        var checkpoints: [Int: SessionCore] = [:]

        mutating func apply(_ fields: Fields, bytes: [UInt8], ahead: Prepared) throws(JournalImportError) {
            let number = try fields.integer("number")
            guard number == cursor.number + 1 else {
                throw fields.fail(
                    "record \(number) where record \(cursor.number + 1) belongs: records are in order, each once, none missing"
                )
            }
            guard case .number(let seconds)? = fields.value("at"), seconds.isFinite else {
                throw fields.fail("'at' must be a number of seconds")
            }
            let at = Date(timeIntervalSinceReferenceDate: seconds)
            guard times.contains(at) else {
                throw fields.fail(
                    "'at' lies outside the session's lifetime: an input falls between its creation and the import, 5 minutes of clock skew either side"
                )
            }
            guard try fields.string("time") == ahead.time ?? at.formatted(JournalExport.timeStyle) else {
                throw fields.fail("'time' is not the instant 'at' names")
            }
            let kind = try fields.string("kind")
            let feature = try fields.optionalString("feature")
            let source = try fields.string("source")
            let events = try Self.eventsData(fields, bytes: bytes)
            // Scalars of the value before, not a copy of it: a copy kept across the replay would make the replay copy
            // the log ring and the states it changes, every line.
            let sequenceBefore = cursor.core.sequence
            let input: SessionInput
            switch kind {
            case "submission":
                let name = try named(feature, fields)
                guard case .array(let ids)? = fields.value("eventIds") else {
                    throw fields.fail("'eventIds' must be an array")
                }
                var eventIDs: [String?] = []
                for id in ids {
                    switch id {
                    case .null: eventIDs.append(nil)
                    case .string(let text) where IdempotencyLedger.isKey(text): eventIDs.append(text)
                    default: throw fields.fail("'eventIds' holds nulls and ids of 1 to 255 visible ASCII characters")
                    }
                }
                guard source == EventSource.client.rawValue else {
                    throw fields.fail("a submission's source is client")
                }
                // What a request could carry: the key as `Idempotency-Key` takes it, the fingerprint as the server
                // makes it (a SHA-256 in hex).
                let key = try fields.optionalString("idempotencyKey")
                guard key.map(IdempotencyLedger.isKey) ?? true else {
                    throw fields.fail("'idempotencyKey' must be 1 to 255 visible ASCII characters")
                }
                let fingerprint = try fields.optionalString("fingerprint")
                guard fingerprint.map(IdempotencyLedger.isFingerprint) ?? true else {
                    throw fields.fail("'fingerprint' must be a SHA-256 digest in hex")
                }
                input = .submission(
                    feature: name, at: at, events: events, eventIDs: eventIDs, key: key, fingerprint: fingerprint)
            case "events":
                guard let from = EventSource(rawValue: source) else { throw fields.fail("'\(source)' is not a source") }
                input = .events(feature: try named(feature, fields), at: at, source: from, events: events)
            case "timer":
                let id = try fields.integer("timer")
                let pending: (feature: String, source: EventSource, events: Data)?
                do throws(UnstorableValue) {
                    pending = try cursor.core.pendingTimer(id)
                } catch {
                    throw fields.fail("timer \(id)'s event cannot be stored: \(error)")
                }
                guard let held = pending else { throw fields.fail("timer \(id) is not pending in the session") }
                guard held.feature == feature, held.source.rawValue == source else {
                    throw fields.fail("timer \(id) is \(held.feature)'s, source \(held.source.rawValue)")
                }
                // A record of an earlier schema version states the event as that version stored it.
                guard
                    Self.sameEvents(held.events, events)
                        || cursor.core.currentEvents(events, of: held.feature).map({ Self.sameEvents(held.events, $0) })
                            == true
                else {
                    throw fields.fail("timer \(id)'s event is not the one the session holds")
                }
                input = .timer(id: id, at: at)
            case "answer":
                guard source == EventSource.provider.rawValue else {
                    throw fields.fail("an answer's source is provider")
                }
                input = .answer(
                    feature: try named(feature, fields), at: at, request: try fields.integer("request"), events: events)
            case "delivery", "introduction", "acknowledgement":
                guard source == EventSource.session.rawValue else { throw fields.fail("a \(kind)'s source is session") }
                input = try ContactLine.input(
                    kind, feature: try named(feature, fields), at: at, events: events, value: fields.value,
                    fail: fields.fail)
            default:
                throw fields.fail(
                    "'\(kind)' is not a kind of input (submission, events, timer, answer, delivery, introduction, acknowledgement)"
                )
            }
            let record = JournalRecord(number: number, input: input)
            // The events as the feature would have made them: decoded (ahead, mostly) and accepted by the feature.
            var decoded = ahead.decoded
            if kind != "timer", let feature {
                let events = decoded ?? cursor.core.decodedAhead(events, of: feature)
                if case .success(let list) = events.events, let problem = cursor.core.problem(events: list, of: feature)
                {
                    throw fields.fail("its \(problem)")
                }
                decoded = events
            }
            do throws(HistoryError) {
                if let observe {
                    try cursor.apply(record, decoded: decoded) { feature, version, snapshot in
                        observe(number, feature, version, snapshot())
                    }
                } else {
                    try cursor.apply(record, decoded: decoded, observe: nil)
                }
            } catch {
                throw fields.fail("it does not apply: \(error)")
            }
            let after = cursor.core
            let sequence = try fields.integer("sequence")
            guard after.sequence == sequence else {
                throw fields.fail("replayed, it reaches sequence \(after.sequence), not the \(sequence) it states")
            }
            let version = feature.flatMap(after.version(of:))
            guard version == (try fields.optionalInteger("versionAfter")) else {
                throw fields.fail(
                    "replayed, it leaves \(feature ?? "no feature") at version \(version.map(String.init) ?? "none"), not the one it states"
                )
            }
            let cause = after.log.entry(sequence: sequenceBefore + 1)?.causedBy
            guard cause == (try fields.optionalInteger("causedBy")) else {
                throw fields.fail("replayed, its cause is \(cause.map(String.init) ?? "none"), not the one it states")
            }
            records.append(record)
            if (records.count % max(1, checkpointEvery)) == 0 { checkpoints[number] = after }
        }

        mutating func end(_ fields: Fields) throws(JournalImportError) {
            guard fields.value("end") == .bool(true) else { throw fields.fail("'end' must be true") }
            guard try fields.string("digest") == Digest.hex(digest) else {
                throw fields.fail(
                    "the lines before it are not the ones exported (its digest differs): the journal was changed")
            }
            let core = cursor.core
            guard try fields.integer("records") == records.count, try fields.integer("number") == cursor.number else {
                throw fields.fail(
                    "the end line counts \(try fields.integer("records")) records, the journal has \(records.count)")
            }
            guard try fields.integer("sequence") == core.sequence else {
                throw fields.fail("the end line's sequence is not the one the replay reached (\(core.sequence))")
            }
            guard case .object(let members)? = fields.value("versions"),
                Dictionary(members.map { ($0.0, $0.1) }, uniquingKeysWith: { $1 })
                    == core.versions.mapValues({ JSONValue.number(Double($0)) })
            else { throw fields.fail("the end line's versions are not the ones the replay reached") }
            // Its `snapshots` digest is not compared: this build renders every version again, and a snapshot that
            // gained a field since the export was written renders differently (docs/JOURNAL-EXPORT.md). The lines'
            // digest above still finds any change to what was exported.
            let snapshots = try fields.string("snapshots")
            guard snapshots.utf8.count == 64,
                snapshots.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            else {
                throw fields.fail("'snapshots' must be a SHA-256 digest in hex")
            }
        }

        private func named(_ feature: String?, _ fields: Fields) throws(JournalImportError) -> String {
            guard let feature else { throw fields.fail("'feature' must be a string") }
            guard cursor.core.version(of: feature) != nil else {
                throw fields.fail("the session has no feature '\(feature)'")
            }
            return feature
        }

        /// The line's `schema` and `events` as a journal records events: the array's own text (numbers digit for
        /// digit), wrapped with its schema version when that is not 1.
        static func eventsData(_ fields: Fields, bytes: [UInt8]) throws(JournalImportError) -> Data {
            guard let range = fields.range("events"), case .array? = fields.value("events") else {
                throw fields.fail("'events' must be an array")
            }
            let schema = try fields.integer("schema")
            guard schema >= 1 else { throw fields.fail("'schema' must be 1 or more") }
            return StoredEventsShape.data(array: Data(bytes[range]), schema: schema)
        }

        static func sameEvents(_ held: Data, _ stated: Data) -> Bool {
            guard let left = try? JSONParser.parse([UInt8](held), maxDepth: JournalImport.maxDepth),
                let right = try? JSONParser.parse([UInt8](stated), maxDepth: JournalImport.maxDepth)
            else { return false }
            return left.isEquivalent(to: right)
        }
    }
}

/// The lines of an export, numbered from 1: split at `\n` (a `\r` before it is dropped), a final newline allowed.
private struct Lines: Sendable {
    private let bytes: [UInt8]
    private var position = 0
    private(set) var lastNumber = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func next() -> (number: Int, bytes: [UInt8])? {
        guard position < bytes.count else { return nil }
        let end = bytes[position...].firstIndex(of: 0x0A) ?? bytes.count
        var line = Array(bytes[position..<end])
        if line.last == 0x0D { line.removeLast() }
        position = end + 1
        lastNumber += 1
        return (lastNumber, line)
    }
}
