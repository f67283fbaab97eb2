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
    struct Prepared: Sendable {
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
}
