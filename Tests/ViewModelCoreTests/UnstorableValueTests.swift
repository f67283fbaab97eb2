import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewHostLocking

@testable import ViewModelCore

/// A value a feature made that cannot be stored (a `Double` that is not finite: JSON has no such number) is never
/// kept as empty bytes. Each place that once swallowed the encoding's failure, with such a value: a client's events
/// (refused, nothing applied), a provider's answer and the session's value in a snapshot (the session stops), a
/// pending timer's event and a snapshot in an export (refused naming the feature and the field).
struct UnstorableValueTests {
    let scheduler = ManualScheduler()

    /// A journal that encodes each entry's snapshot as a store does (refusing one it cannot encode) and keeps every
    /// entry durable at once.
    final class EncodingJournal: SessionJournal {
        let numbers = Locked<[Int]>([])

        func append(_ entry: JournalEntry, completion: @escaping @Sendable (Bool) -> Void) throws(UnstorableValue) -> Int {
            var bytes = 0
            if let core = entry.snapshot {
                do {
                    bytes = try StoredJSON.encode(core).count
                } catch {
                    throw core.unstorable(error)
                }
            }
            numbers.withLock { $0.append(entry.number) }
            completion(true)
            return bytes
        }
    }

    func makeSession(journal: (any SessionJournal)? = nil, history: Int = 0) -> Session {
        Session(
            id: .random(), token: .random(),
            environment: SessionEnvironment(
                scheduler: scheduler, requests: ManualRequestRunner([Counter.runner]), journal: journal,
                historyInputs: history),
            features: [InitialFeature(Counter.key, state: .init())])
    }

    /// Site 1: a client's events, encoded before anything is applied.
    @Test func aClientsEventThatCannotBeStoredIsRefusedAndNothingIsApplied() throws {
        let journal = EncodingJournal()
        let session = makeSession(journal: journal)
        #expect {
            try session.submit(Submission(events: [Counter.Event.increment, .setGauge(.infinity)]), to: Counter.key)
        } throws: { error in
            guard case SessionError.unstorable(let value) = error else { return false }
            return value.feature == "counter" && value.field.hasPrefix("events[1]")
        }
        #expect(session.version(of: "counter") == 1)
        #expect(journal.numbers.withLock { $0 }.isEmpty)
        #expect(session.unstorableValue == nil, "a refused request does not stop the session")
        _ = try session.submit(Submission(events: [Counter.Event.setGauge(2.5)]), to: Counter.key)
        #expect(session.viewModel(of: Counter.key)?.value.gauge == 2.5)
    }

    /// Site 2: a provider's answer, encoded before it is applied: the session stops, and says why to every request.
    @Test func anAnswerThatCannotBeStoredStopsTheSession() async throws {
        let runner = ManualRequestRunner([Counter.runner])
        let session = Session(
            id: .random(), token: .random(),
            environment: SessionEnvironment(scheduler: scheduler, requests: runner, journal: EncodingJournal()),
            features: [InitialFeature(Counter.key, state: .init())])
        try session.send([.measure(0)], to: Counter.key)  // answered with setGauge(1 / 0)
        await runner.runAll()
        let stopped = try #require(session.unstorableValue)
        #expect(stopped.feature == "counter")
        #expect(session.viewModel(of: Counter.key)?.value.gauge == nil, "the answer was not applied")
        #expect(throws: SessionError.unstorable(stopped)) { try session.send([.increment], to: Counter.key) }
    }

    /// Site 3 (both stores make the snapshot the same way): the session's value, taken as a snapshot every 64
    /// inputs. The entry that carries it is not written; the session stops; what came before it is kept.
    @Test func aValueThatCannotBeStoredStopsTheSessionAtItsSnapshot() throws {
        let journal = EncodingJournal()
        let session = makeSession(journal: journal)
        try session.send([.overflowGauge], to: Counter.key)
        for _ in 2..<Session.snapshotInterval { try session.send([.increment], to: Counter.key) }
        #expect(session.unstorableValue == nil)
        try session.send([.increment], to: Counter.key)  // applied; its entry, with the snapshot, is refused
        let stopped = try #require(session.unstorableValue)
        #expect(stopped.feature == "counter")
        #expect(stopped.field == "state.gauge", "\(stopped)")
        #expect(journal.numbers.withLock { $0 } == Array(1..<Session.snapshotInterval), "nothing written as empty bytes")
        #expect(throws: SessionError.unstorable(stopped)) { try session.send([.increment], to: Counter.key) }
        #expect(session.isClosed)
    }

    /// Site 4 (`StoredValueFormat`, `PostgresSessionStorage.json` and this journal encode a value alike): the whole
    /// value's encoding names the feature and the field.
    @Test func aWholeValueThatCannotBeEncodedNamesItsFeatureAndField() throws {
        var core = SessionCore(settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(Counter.key, state: .init())])
        _ = try core.apply([Counter.Event.overflowGauge], to: Counter.key, source: .client, at: scheduler.now)
        do {
            _ = try StoredJSON.encode(core)
            Issue.record("a value with an infinite number encoded")
        } catch {
            #expect(core.unstorable(error) == UnstorableValue(feature: "counter", field: "state.gauge", reason: core.unstorable(error).reason))
        }
    }

    /// Site 5: a pending timer's event (an export writes it, an import checks it): refused naming the timer.
    @Test func aPendingTimersEventThatCannotBeStoredIsNamed() throws {
        var core = SessionCore(settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(Counter.key, state: .init())])
        _ = try core.apply([Counter.Event.setGaugeLater(-.infinity)], to: Counter.key, source: .client, at: scheduler.now)
        let id = try #require(core.pendingTimers.first?.id)
        #expect {
            _ = try core.pendingTimer(id)
        } throws: { error in
            (error as? UnstorableValue)?.field.hasPrefix("timers[\(id)].event") == true
        }
    }

    /// Site 6: an export's end line, whose digest covers every feature's snapshot: it is not written (the export
    /// reads as cut short) rather than a digest of nothing.
    @Test func anExportWhoseSnapshotCannotBeEncodedHasNoEndLine() throws {
        var core = SessionCore(settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(Counter.key, state: .init())])
        // A gauge of 0 is stored; its snapshot shows one over it, which is not finite.
        _ = try core.apply([Counter.Event.setGauge(0)], to: Counter.key, source: .client, at: scheduler.now)
        let writer = try JournalExportWriter(
            session: SessionID("s"), createdAt: scheduler.now, exportedAt: scheduler.now, base: core, number: 0)
        #expect {
            _ = try writer.end()
        } throws: { error in
            (error as? UnstorableValue)?.feature == "counter"
        }
    }
}
