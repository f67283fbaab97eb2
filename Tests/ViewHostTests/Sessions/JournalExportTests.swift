@testable import ViewHost
import Foundation
import Testing
import TestSupport
import ViewModelCore

/// The journal export (docs/JOURNAL-EXPORT.md) on random walks over all four features: written and read back, it
/// replays to the same inputs and value; read again and written again, to the same bytes. An export cut short,
/// reordered, repeated or edited by hand is refused, naming its line.
struct JournalExportTests {
    static let exportedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// The export of `walk` from the session's start.
    static func export(_ walk: SessionWalk, session: String = "walk") throws -> [UInt8] {
        let base = SessionWalk.newCore(seed: walk.seed)
        var writer = try JournalExportWriter(
            session: SessionID(session), createdAt: SessionWalk.start, exportedAt: exportedAt, base: base, number: 0)
        var bytes = writer.header
        for (index, input) in walk.inputs.enumerated() {
            bytes += try writer.line(for: JournalRecord(number: index + 1, input: input))
        }
        return bytes + (try writer.end())
    }

    static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    static func joined(_ lines: [String]) -> [UInt8] {
        Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// Why `bytes` are not read back as an export (nil: they are).
    static func refusal(_ bytes: [UInt8]) -> JournalImportError? {
        do {
            _ = try JournalImport.read(bytes, types: SessionWalk.types, now: SessionWalk.importedAt)
            return nil
        } catch {
            return error
        }
    }

    @Test func aWalkExportedReadsBackToTheSameInputsAndValue() throws {
        for seed in UInt64(1)...60 {
            var walk = SessionWalk(seed: seed)
            try walk.walk(steps: 80)
            let bytes = try Self.export(walk)
            let imported = try JournalImport.read(bytes, types: SessionWalk.types, now: SessionWalk.importedAt)
            #expect(imported.records.map(\.input) == walk.inputs, "seed \(seed)")
            #expect(imported.final == walk.core, "seed \(seed)")
            #expect(imported.base == SessionWalk.newCore(seed: seed))
            #expect(imported.exportedSession == "walk")
            // Every version each feature reached, observed as it is made, is the walk's after the same input.
            var last: [String: (number: Int, version: Int, body: [UInt8])] = [:]
            _ = try JournalImport.read(bytes, types: SessionWalk.types, now: SessionWalk.importedAt) { number, feature, version, viewModel in
                last[feature] = (
                    number, version,
                    SnapshotEncoder.encode(feature: feature, version: version, viewModel: viewModel, sessionID: SessionID("walk")).body
                )
            }
            let frame = SessionWalk.frame(of: walk.core)
            for feature in SessionWalk.features {
                #expect(last[feature]?.version == frame.versions[feature], "seed \(seed) \(feature)")
                #expect(last[feature]?.body == frame.snapshots[feature], "seed \(seed) \(feature)")
            }
            // Written again from what was read: the same bytes.
            var writer = try JournalExportWriter(
                session: SessionID("walk"), createdAt: SessionWalk.start, exportedAt: Self.exportedAt, base: imported.base,
                number: imported.baseNumber)
            var again = writer.header
            for record in imported.records { again += try writer.line(for: record) }
            again += try writer.end()
            let firstDifference = zip(Self.lines(again), Self.lines(bytes)).first { $0.0 != $0.1 }
            #expect(again.count == bytes.count && firstDifference == nil, "seed \(seed): \(firstDifference.map { "\($0.0)\n\($0.1)" } ?? "")")
        }
    }

    @Test func eachLineSaysWhatItsInputDid() throws {
        var walk = SessionWalk(seed: 7)
        try walk.walk(steps: 40)
        let lines = Self.lines(try Self.export(walk))
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["format"] as? String == "viewhost-journal")
        #expect(header["formatVersion"] as? Int == 1)
        #expect(header["features"] as? [String] == SessionWalk.features)
        #expect(header["baseNumber"] as? Int == 0)
        let records = try lines.dropFirst().dropLast().map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.map { $0["number"] as? Int } == Array(1...walk.inputs.count).map { $0 })
        let kinds = Set(records.compactMap { $0["kind"] as? String })
        #expect(kinds.isSuperset(of: ["events", "submission", "timer"]), "\(kinds)")
        for record in records {
            #expect(record["time"] is String && record["at"] is Double || record["at"] is Int)
            #expect(["client", "view", "timer", "simulator", "provider"].contains(record["source"] as? String ?? ""))
            #expect(record["events"] is [Any])
            #expect(record["sequence"] is Int)
            #expect(record.keys.contains("causedBy") && record.keys.contains("versionAfter"))
        }
        let timers = records.filter { $0["kind"] as? String == "timer" }
        #expect(timers.allSatisfy { $0["causedBy"] is Int && ($0["events"] as? [Any])?.count == 1 })
        let end = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])
        #expect(end["end"] as? Bool == true)
        #expect(end["records"] as? Int == walk.inputs.count)
        #expect(end["sequence"] as? Int == walk.core.sequence)
    }

    @Test func anExportThatIsNotWhatWasWrittenIsRefusedNamingItsLine() throws {
        var walk = SessionWalk(seed: 11)
        try walk.walk(steps: 40)
        let lines = Self.lines(try Self.export(walk))
        let last = lines.count
        func refusal(_ changed: [String]) -> JournalImportError? { Self.refusal(Self.joined(changed)) }
        func refusal(bytes: [UInt8]) -> JournalImportError? { Self.refusal(bytes) }
        // Cut short: without its end line, or in the middle of a line.
        #expect(refusal(Array(lines.dropLast()))?.line == last - 1)
        #expect(refusal(Array(lines.dropLast().dropLast())) != nil)
        let cut = Array(Self.joined(lines).prefix(Self.joined(Array(lines.prefix(5))).count + 20))
        #expect(refusal(bytes: cut)?.line == 6)
        // Reordered, repeated, missing.
        var swapped = lines
        swapped.swapAt(3, 4)
        #expect(refusal(swapped)?.line == 4)
        var repeated = lines
        repeated.insert(lines[5], at: 6)
        #expect(refusal(repeated)?.line == 7)
        var missing = lines
        missing.remove(at: 8)
        #expect(refusal(missing)?.line == 9)
        // Edited by hand: a stated sequence, a version, a time, an event that still applies but changes the end.
        for (field, value) in [("sequence", "999"), ("versionAfter", "999"), ("causedBy", "1"), ("number", "77")] {
            var edited = lines
            edited[6] = try Self.replacing(field, in: edited[6], with: value)
            #expect(refusal(edited)?.line == 7, "\(field)")
        }
        var retimed = lines
        retimed[6] = try Self.replacing("time", in: retimed[6], with: "\"2001-01-01T00:00:00.000Z\"")
        #expect(refusal(retimed)?.line == 7)
        // An event's content, edited: it still applies, but the session does not end as it did.
        let person = try #require(lines.indices.first { lines[$0].contains("\"firstName\":\"") })
        var contentEdited = lines
        contentEdited[person] = contentEdited[person].replacingOccurrences(of: "\"firstName\":\"", with: "\"firstName\":\"X")
        let contentRefusal = refusal(contentEdited)
        #expect(contentRefusal != nil)
        #expect(contentRefusal?.line == last || contentRefusal?.line == person + 1, "\(String(describing: contentRefusal))")
        var endEdited = lines
        endEdited[last - 1] = try Self.replacing("snapshots", in: endEdited[last - 1], with: "\"00\"")
        #expect(refusal(endEdited)?.line == last)
        // Not an export at all; a header of another format; lines after the end; an empty file.
        #expect(refusal(["{\"hello\":1}"])?.line == 1)
        #expect(refusal([try Self.replacing("formatVersion", in: lines[0], with: "2")] + lines.dropFirst())?.line == 1)
        #expect(refusal(lines + [lines[1]])?.line == last + 1)
        #expect(refusal(bytes: [])?.line == 1)
        #expect(refusal(lines.prefix(3) + ["not json"] + lines.dropFirst(3))?.line == 4)
    }

    /// An import reads its lines ahead in parts (parsed, their instants written, their events decoded on another
    /// thread) while it replays the ones before, and an export decodes the next page of records the same way: a long
    /// walk reads back the same across parts, written with its events decoded ahead it is the same bytes, and a line
    /// damaged in a later part is the one named.
    @Test func aLongExportReadsBackAcrossPartsAndADamagedLineLaterOnIsNamed() throws {
        var walk = SessionWalk(seed: 31)
        try walk.walk(steps: 2_000)
        let bytes = try Self.export(walk)
        let lines = Self.lines(bytes)
        try #require(lines.count > 4 * 128, "\(lines.count) lines")
        let imported = try JournalImport.read(bytes, types: SessionWalk.types, now: SessionWalk.importedAt)
        #expect(imported.records.map(\.input) == walk.inputs)
        #expect(imported.final == walk.core)
        let base = SessionWalk.newCore(seed: walk.seed)
        var writer = try JournalExportWriter(
            session: SessionID("walk"), createdAt: SessionWalk.start, exportedAt: Self.exportedAt, base: base, number: 0)
        var ahead = writer.header
        for record in imported.records { ahead += try writer.line(for: record, decoded: base.decodedAhead(record.input)) }
        #expect(try ahead + writer.end() == bytes)
        func refusal(_ changed: [String]) -> JournalImportError? { Self.refusal(Self.joined(changed)) }
        var swapped = lines
        swapped.swapAt(300, 301)
        #expect(refusal(swapped)?.line == 301)
        var notJSON = lines
        notJSON.insert("not json", at: 400)
        #expect(refusal(notJSON)?.line == 401)
        var retimed = lines
        retimed[450] = try Self.replacing("time", in: retimed[450], with: "\"2001-01-01T00:00:00.000Z\"")
        #expect(refusal(retimed)?.line == 451)
        // Events that no longer decode as the feature's: named at their line, though decoded ahead of it.
        let submission = try #require(lines.indices.first { $0 > 260 && lines[$0].contains("\"kind\":\"submission\"") })
        var undecodable = lines
        undecodable[submission] = undecodable[submission].replacingOccurrences(of: "\"events\":[", with: "\"events\":[7,")
        let undecodableRefusal = refusal(undecodable)
        #expect(undecodableRefusal?.line == submission + 1, "\(String(describing: undecodableRefusal))")
        #expect(undecodableRefusal?.reason.contains("do not decode") == true, "\(String(describing: undecodableRefusal))")
        #expect(refusal(Array(lines.dropLast()))?.line == lines.count - 1)
        #expect(refusal(lines + [lines[1]])?.line == lines.count + 1)
    }

    /// Events decoded ahead are used only for the input whose feature and bytes they were decoded from: given
    /// another input's (the one before of the same feature), a replay decodes the input's own and ends where the
    /// walk did.
    @Test func eventsDecodedAheadAreUsedOnlyForTheBytesTheyWereDecodedFrom() throws {
        var walk = SessionWalk(seed: 13)
        try walk.walk(steps: 300)
        var plain = SessionWalk.newCore(seed: walk.seed)
        var offered = plain
        var before: [String: DecodedEvents] = [:]
        var offeredOthers = 0
        for input in walk.inputs {
            let feature: String? =
                switch input {
                case .submission(let name, _, _, _, _, _, _), .events(let name, _, _, _), .answer(let name, _, _, _): name
                case .delivery(let name, _, _, _, _, _): name
                case .timer, .introduction, .acknowledgement, .participation: nil
                }
            try plain.replay(input)
            try offered.replay(input, decoded: feature.flatMap { before[$0] })
            #expect(offered == plain)
            if let feature {
                if before[feature] != nil { offeredOthers += 1 }
                before[feature] = plain.decodedAhead(input)
            }
        }
        #expect(plain == walk.core)
        #expect(offeredOthers > 50)
    }

    @Test func everyDamagedExportIsRefused() throws {
        var walk = SessionWalk(seed: 21)
        try walk.walk(steps: 40)
        let bytes = try Self.export(walk)
        let lineCount = Self.lines(bytes).count
        // The end line's snapshot digest is not compared (an import renders every version again, and a snapshot
        // may have gained a field since): a digit changed for another there is the one change that reads back.
        let snapshotDigest = try #require(String(decoding: bytes, as: UTF8.self).range(of: "\"snapshots\":\""))
        let unchecked = bytes.count - String(decoding: bytes, as: UTF8.self)[snapshotDigest.upperBound...].utf8.count
        var random = SplitMix64(state: 24)
        var refused = 0
        for round in 0..<300 {
            var damaged = bytes
            let at = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 4 {
            case 0:
                guard !(unchecked..<unchecked + 64).contains(at) else { continue }
                damaged[at] = damaged[at] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")  // a digit, a letter
            case 1: damaged = Array(damaged.prefix(at))  // cut
            case 2: damaged.remove(at: at)
            default: damaged.insert(damaged[at], at: at)
            }
            guard damaged != bytes else { continue }
            do {
                _ = try JournalImport.read(damaged, types: SessionWalk.types, now: SessionWalk.importedAt)
                Issue.record("round \(round): a damaged export at byte \(at) was read back")
            } catch {
                #expect((1...(lineCount + 1)).contains(error.line), "round \(round): \(error)")
                refused += 1
            }
        }
        #expect(refused > 250)
    }

    @Test func aJournalOfFeaturesThisAppDoesNotServeIsRefusedAtItsHeader() throws {
        var walk = SessionWalk(seed: 5)
        try walk.walk(steps: 10)
        let bytes = try Self.export(walk)
        let fewer = FeatureTypes([])
        #expect(throws: JournalImportError.self) { _ = try JournalImport.read(bytes, types: fewer, now: SessionWalk.importedAt) }
        do {
            _ = try JournalImport.read(bytes, types: fewer, now: SessionWalk.importedAt)
        } catch {
            #expect(error.line == 1)
            #expect(error.reason.contains("chat"), "\(error.reason)")
        }
    }

    /// `line` with member `field`'s value replaced by `value` (JSON text).
    static func replacing(_ field: String, in line: String, with value: String) throws -> String {
        guard var object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return line }
        object[field] = try JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
}
