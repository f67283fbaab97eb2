import Foundation
import ViewHostAPI
import ViewHostCrypto
import ViewHostJSON

/// How ``JournalImport`` reads an export: its lines, each line's members, and the reader that replays them.
extension JournalImport {
    /// One line's members, read with the line's number for errors.
    struct Fields {
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
    struct Reader {
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
                let participant = try fields.optionalString("participant")
                guard participant.map({ Participant.parseToken($0 + ".x")?.id == $0 }) ?? true else {
                    throw fields.fail("'participant' must be a participant's id: 1 to 32 letters and digits")
                }
                input = .submission(
                    feature: name, at: at, events: events, eventIDs: eventIDs, key: key, fingerprint: fingerprint,
                    participant: participant)
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
            case "participation":
                let stated = try fields.string("participation")
                guard let participation = Participation(rawValue: stated) else {
                    throw fields.fail(
                        "'participation' must be one of \(Participation.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                let id = try fields.string("id")
                guard Participation.isValidID(id) else {
                    throw fields.fail("'id' must be an invitation's or a participant's id: 1 to 32 letters and digits")
                }
                guard feature == nil, source == EventSource.client.rawValue, events == Data("[]".utf8) else {
                    throw fields.fail("a participation names no feature, has source client and no events")
                }
                input = .participation(at: at, kind: participation, id: id)
            default:
                throw fields.fail(
                    "'\(kind)' is not a kind of input (submission, events, timer, answer, delivery, introduction, acknowledgement, participation)"
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

    /// The lines of an export, numbered from 1: split at `\n` (a `\r` before it is dropped), a final newline allowed.
    struct Lines: Sendable {
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
}
