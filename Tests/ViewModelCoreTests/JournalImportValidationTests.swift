import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewModelCore

/// An export is untrusted input: anyone can write one and recompute its digest. Its header's value and its records
/// are held to what a live session could be, and refused naming the line and the field; nothing in one traps.
struct JournalImportValidationTests {
    static let start = Date(timeIntervalSince1970: 1_795_442_400)
    static let importedAt = start.addingTimeInterval(3_600)

    /// An export of a counter session made at ``start``: an increment, a timer of 5 s, an answer asked for, and
    /// another increment, each a second apart (versions 2 and 3; the others change nothing shown).
    static func export(settings: SessionSettings = SessionSettings()) throws -> [UInt8] {
        var core = SessionCore(settings: settings, random: .seeded(1), features: [InitialFeature(Counter.key, state: .init())])
        var writer = try JournalExportWriter(
            session: SessionID("counter"), createdAt: start, exportedAt: importedAt, base: core, number: 0)
        var bytes = writer.header
        let events: [Counter.Event] = [.increment, .incrementLater(.seconds(5)), .fetch(2), .increment]
        for (index, event) in events.enumerated() {
            let input = SessionInput.submission(
                feature: "counter", at: start.addingTimeInterval(Double(index + 1)),
                events: try core.encodeEvents([event], of: "counter"), eventIDs: [nil], key: nil, fingerprint: nil)
            try core.replay(input)
            bytes += try writer.line(for: JournalRecord(number: index + 1, input: input))
        }
        return bytes + (try writer.end())
    }

    static func read(_ bytes: [UInt8], types: FeatureTypes = FeatureTypes([Counter.self])) throws(JournalImportError) -> ImportedJournal {
        try JournalImport.read(bytes, types: types, now: importedAt)
    }

    /// Why `bytes` are refused (nil: they are read).
    static func refusal(_ bytes: [UInt8]) -> JournalImportError? {
        do {
            _ = try read(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func anExportForgedWithoutAChangeReadsBack() throws {
        let bytes = try Self.export()
        // The forgery's digest is the exporter's: what the tests below refuse, they refuse for their change.
        #expect(ForgedExport.forge(bytes) { _ in } == bytes)
        #expect(try Self.read(bytes).final.version(of: "counter") == 3)
    }

    @Test(arguments: [
        (#""nextTimerID":\d+"#, #""nextTimerID":9223372036854775807"#, "base.counters.nextTimerID"),
        (#""nextTimerID":\d+"#, #""nextTimerID":0"#, "base.counters.nextTimerID"),
        (#""sequence":\d+"#, #""sequence":-1"#, "base.counters.sequence"),
        (#""simulationSpeed":[0-9.e+-]+"#, #""simulationSpeed":0"#, "base.settings.simulationSpeed"),
        (#""simulationSpeed":[0-9.e+-]+"#, #""simulationSpeed":1e-300"#, "base.settings.simulationSpeed"),
        (#""simulationSpeed":[0-9.e+-]+"#, #""simulationSpeed":-5"#, "base.settings.simulationSpeed"),
        (#""simulationSpeed":[0-9.e+-]+"#, #""simulationSpeed":1e300"#, "base.settings.simulationSpeed"),
        (#""logCapacity":\d+"#, #""logCapacity":-1"#, "base.settings.logCapacity"),
        (#""logCapacity":\d+"#, #""logCapacity":1000000000000"#, "base.settings.logCapacity"),
        (#""locale":"[^"]*""#, "\"locale\":\"\(String(repeating: "x", count: 100_000))\"", "base.settings.locale"),
        (#""locale":"[^"]*""#, #""locale":"en US<script>""#, "base.settings.locale"),
        (#""count":0"#, #""count":5000000000"#, "base.features[0].slot.state.count"),
        (#""version":1"#, #""version":-7"#, "base.features[0].slot.version"),
    ])
    func aHeaderValueNoLiveSessionCouldHaveIsRefusedNamingTheField(pattern: String, replacement: String, field: String) throws {
        let forged = ForgedExport.replacing(pattern, with: replacement, inLine: 1, of: try Self.export())
        let refusal = try #require(Self.refusal(forged))
        #expect(refusal.line == 1, "\(refusal)")
        #expect(refusal.reason.hasPrefix(field), "\(refusal)")
    }

    @Test func recordsOutsideTheSessionsLifetimeAreRefused() throws {
        let bytes = try Self.export()
        // The year 9606, and a day before the session was made; 4 minutes after the import is within the skew.
        for (at, refused) in [(240_000_000_000.0, true), (Self.start.timeIntervalSinceReferenceDate - 86_400, true),
            (Self.importedAt.timeIntervalSinceReferenceDate + 240, false)] {
            let forged = ForgedExport.forge(bytes) { lines in
                let time = Date(timeIntervalSinceReferenceDate: at).formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
                lines[4] = lines[4].replacingOccurrences(of: #""at":[0-9.e+-]+"#, with: "\"at\":\(at)", options: .regularExpression)
                    .replacingOccurrences(of: #""time":"[^"]*""#, with: "\"time\":\"\(time)\"", options: .regularExpression)
            }
            let refusal = Self.refusal(forged)
            if refused {
                #expect(refusal?.line == 5, "\(String(describing: refusal))")
                #expect(refusal?.reason.contains("lifetime") == true, "\(String(describing: refusal))")
            } else {
                #expect(refusal?.reason.contains("lifetime") != true, "\(String(describing: refusal))")
            }
        }
    }

    @Test func aCreationAfterTheImportIsRefused() throws {
        let bytes = try Self.export()
        let forged = ForgedExport.replacing(#""createdAt":"[^"]*""#, with: #""createdAt":"2030-01-01T00:00:00.000Z""#, inLine: 1, of: bytes)
        #expect(Self.refusal(forged)?.line == 1)
    }

    @Test func aRecordedEventTheFeatureCouldNotHaveMadeIsRefusedNamingIt() throws {
        let bytes = try Self.export()
        // The answer asked for (record 3) as 2 becomes one past the feature's bound.
        let forged = ForgedExport.replacing(#"\{"fetch":\{"_0":2\}\}"#, with: #"{"fetch":{"_0":9000000000000000}}"#, inLine: 4, of: bytes)
        #expect(forged != bytes)
        let refusal = try #require(Self.refusal(forged))
        #expect(refusal.line == 4, "\(refusal)")
        #expect(refusal.reason == "its events[0].value must be -1000000 to 1000000, not 9000000000000000", "\(refusal)")
    }

    @Test func aPendingTimerThatWouldNeverFireIsRefused() throws {
        // A value with the 5 s timer pending, then its due instant forged to the year 9606.
        var core = SessionCore(settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(Counter.key, state: .init())])
        try core.replay(
            .submission(
                feature: "counter", at: Self.start, events: try core.encodeEvents([Counter.Event.incrementLater(.seconds(5))], of: "counter"),
                eventIDs: [nil], key: nil, fingerprint: nil))
        let writer = try JournalExportWriter(session: SessionID("timer"), createdAt: Self.start, exportedAt: Self.importedAt, base: core, number: 1)
        let bytes = writer.header + (try writer.end())
        #expect(throws: Never.self) { try Self.read(bytes) }
        let forged = ForgedExport.replacing(#""dueAt":[0-9.e+-]+"#, with: #""dueAt":240000000000"#, inLine: 1, of: bytes)
        let refusal = try #require(Self.refusal(forged))
        #expect(refusal.reason.hasPrefix("base.features[0].slot.timers[1].dueAt"), "\(refusal)")
    }

    @Test func aValueAtTheLargestCountersImportsAndCountsOnWithoutOverflow() throws {
        let most = SessionCore.maxCounter
        let forged = ForgedExport.forge(try Self.export()) { lines in
            lines[0] = lines[0].replacingOccurrences(of: #""nextTimerID":\d+"#, with: "\"nextTimerID\":\(most)", options: .regularExpression)
        }
        let imported = try Self.read(forged)
        var core = imported.final
        // A timer scheduled there takes the largest number, and the next number is one more: no trap.
        try core.replay(
            .submission(
                feature: "counter", at: Self.importedAt, events: try core.encodeEvents([Counter.Event.incrementLater(.seconds(1))], of: "counter"),
                eventIDs: [nil], key: nil, fingerprint: nil))
        #expect(core.pendingTimers.map(\.id).contains(where: { $0 >= most }))
    }

    /// Item 3 of "No request can crash the server": an export written before a feature's snapshot gained a field
    /// imports after it, every version rendered again with the field (it once failed "the journal was changed").
    @Test func anExportWrittenBeforeASnapshotGainedAFieldImportsAfterIt() throws {
        let bytes = try Self.export()
        var rendered: [Int: any ViewModel] = [:]
        let imported = try JournalImport.read(bytes, types: FeatureTypes([CounterWithTotal.self]), now: Self.importedAt) {
            _, _, version, viewModel in rendered[version] = viewModel
        }
        #expect(imported.final.version(of: "counter") == 3)
        let last = try #require(rendered[3] as? CounterWithTotal.Snapshot)
        #expect(last.count == 2)
        #expect(last.doubled == 4)
    }

    /// `simulation.speed` 1e-300 was refused above; a speed in range with a delay no feature asks for is cut, not
    /// a trap: the instant it falls due can always be computed.
    @Test func anEnormousDelayAtTheSlowestSpeedIsCutNotATrap() throws {
        var core = SessionCore(
            settings: SessionSettings(simulationSpeed: SessionSettings.simulationSpeeds.lowerBound), random: .seeded(1),
            features: [InitialFeature(Counter.key, state: .init())])
        try core.replay(
            .submission(
                feature: "counter", at: Self.start, events: try core.encodeEvents([Counter.Event.incrementLater(.seconds(Int64.max))], of: "counter"),
                eventIDs: [nil], key: nil, fingerprint: nil))
        let due = try #require(core.nextTimerDue)
        #expect(due.timeIntervalSince(Self.start) == Double(SessionSettings.maxRealDelay.components.seconds))
    }
}

/// ``Counter`` after its snapshot gained a field (`doubled`): the same name, state and events.
enum CounterWithTotal: Feature {
    typealias State = Counter.State
    typealias Event = Counter.Event
    typealias Request = Counter.Request

    struct Snapshot: FeatureSnapshot {
        static let feature = "counter"
        var count: Int
        var picks: [Int]
        var doubled: Int
    }

    static let key = FeatureKey<CounterWithTotal>("counter")

    static func check(_ event: Event, in state: State) throws(EventRefusal) {
        try Counter.check(event, in: state)
    }

    static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<CounterWithTotal>) {
        var counting = FeatureContext<Counter>(
            now: context.now, source: context.source, sequence: context.sequence, settings: context.settings,
            random: context.random)
        Counter.apply(event, to: &state, context: &counting)
        context.random = counting.random
        if counting.didChange { context.markChanged() }
        for request in counting.requestedWork { context.request(request) }
        for scheduled in counting.scheduledEvents { context.schedule(scheduled.event, after: scheduled.delay, source: scheduled.source) }
    }

    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot {
        Snapshot(count: state.count, picks: state.picks, doubled: state.count * 2)
    }

    static func describe(_ event: Event) -> EventDescription {
        Counter.describe(event)
    }
}
