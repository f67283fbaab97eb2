import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewModelCore

/// A shared session's invitations, joins and removals as journal inputs (issue 43, item 5): each takes the next
/// sequence number and logs an entry of `participants` with version 0, changing no feature; an export carries them as
/// lines of kind `participation`, and an import checks their kind and id as it checks a participant's.
struct ParticipationJournalTests {
    typealias Base = JournalImportValidationTests

    /// A counter session: an increment, Bea joins, another increment (records 1 to 3).
    static func export() throws -> [UInt8] {
        var core = SessionCore(
            settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(Counter.key, state: .init())])
        var writer = try JournalExportWriter(
            session: SessionID("counter"), createdAt: Base.start, exportedAt: Base.importedAt, base: core, number: 0)
        var bytes = writer.header
        let increment = try core.encodeEvents([Counter.Event.increment], of: "counter")
        let inputs: [SessionInput] = [
            .submission(
                feature: "counter", at: Base.start.addingTimeInterval(1), events: increment, eventIDs: [nil], key: nil,
                fingerprint: nil),
            .participation(at: Base.start.addingTimeInterval(2), kind: .joined, id: "pbea"),
            .submission(
                feature: "counter", at: Base.start.addingTimeInterval(3), events: increment, eventIDs: [nil], key: nil,
                fingerprint: nil),
        ]
        for (index, input) in inputs.enumerated() {
            try core.replay(input)
            bytes += try writer.line(for: JournalRecord(number: index + 1, input: input))
        }
        return bytes + (try writer.end())
    }

    @Test func aParticipationTakesASequenceNumberAndChangesNoVersion() throws {
        var core = SessionCore(
            settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(Counter.key, state: .init())])
        #expect(try core.replay(.participation(at: Base.start, kind: .invited, id: "jone")) == nil)
        #expect(core.sequence == 1)
        #expect(core.version(of: "counter") == 1)
        #expect(core.features(changedAfter: 1).isEmpty)
        let entry = try #require(core.log.entry(sequence: 1))
        #expect(entry.feature == "participants" && entry.event == "invited" && entry.summary == #"invitation="jone""#)
        #expect(entry.versionAfter == 0 && entry.causedBy == nil && entry.source == .client)
    }

    @Test func anExportWithAParticipationReadsBackWithItsLogEntry() throws {
        let text = String(decoding: try Self.export(), as: UTF8.self)
        #expect(text.contains(#""kind":"participation""#) && text.contains(#""participation":"joined","id":"pbea""#))
        let imported = try Base.read(try Self.export())
        #expect(imported.final.version(of: "counter") == 3)
        #expect(imported.final.sequence == 3)
        let entry = try #require(imported.final.log.entry(sequence: 2))
        #expect(entry.feature == "participants" && entry.summary == #"participant="pbea""#)
        // The value with the entry in its log is one an import takes as a header too.
        #expect(imported.final.problem(times: Base.start...Base.importedAt) == nil)
    }

    @Test(arguments: [
        (#""participation":"joined""#, #""participation":"promoted""#, "'participation' must be one of"),
        (#""id":"pbea""#, #""id":"p.bea""#, "'id' must be"),
        (#""id":"pbea""#, "\"id\":\"\(String(repeating: "p", count: 33))\"", "'id' must be"),
        (#""feature":null"#, #""feature":"counter""#, "a participation names no feature"),
    ])
    func aParticipationLineNoSessionWroteIsRefused(pattern: String, replacement: String, reason: String) throws {
        let forged = ForgedExport.replacing(pattern, with: replacement, inLine: 3, of: try Self.export())
        let refusal = try #require(Base.refusal(forged))
        #expect(refusal.line == 3, "\(refusal)")
        #expect(refusal.reason.hasPrefix(reason), "\(refusal)")
    }
}
