import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewModelCore

/// The session as a value: refusals change nothing, batches are all or nothing, keys replay, and a whole core
/// encodes and decodes back equal.
struct SessionCoreTests {
    let start = Date(timeIntervalSince1970: 1_795_442_400)

    func makeCore() -> SessionCore {
        SessionCore(
            settings: SessionSettings(), random: .seeded(3), features: [InitialFeature(Counter.key, state: Counter.State())])
    }

    @Test func aRefusedEventChangesNothingAndSaysWhatIsAllowed() throws {
        var core = makeCore()
        let before = core
        #expect(throws: SessionRefusal.refused(EventRefusal(reason: "The count is 0.", allowed: ["increment"]), index: 0)) {
            try core.apply([.decrement], to: Counter.key, source: .client, at: start)
        }
        #expect(core == before)
    }

    @Test func aBatchIsAllOrNothing() throws {
        var core = makeCore()
        let before = core
        #expect(throws: SessionRefusal.refused(EventRefusal(reason: "The count is 0.", allowed: ["increment"]), index: 2)) {
            try core.apply([.increment, .decrement, .decrement], to: Counter.key, source: .client, at: start)
        }
        #expect(core == before)
        let step = try core.apply([.increment, .decrement], to: Counter.key, source: .client, at: start)
        #expect(step.version == 3)
        #expect(core.sequence == 2)
    }

    @Test func internalEventsAreNeverChecked() throws {
        var core = makeCore()
        _ = try core.apply([.decrement], to: Counter.key, source: .view, at: start)
        #expect(core.state(of: Counter.key)?.count == -1)
    }

    @Test func aTimerFiresAsAStepCausedByItsScheduler() throws {
        var core = makeCore()
        let step = try core.apply([.incrementLater(.seconds(2))], to: Counter.key, source: .client, at: start)
        #expect(step.timersStarted.map(\.dueAt) == [start.addingTimeInterval(2)])
        let fired = core.fireTimer(step.timersStarted[0].id, at: start.addingTimeInterval(2))
        #expect(fired?.changes == [SessionChange(sequence: 2, versions: ["counter": 2])])
        #expect(core.log.entries(after: 0).map(\.causedBy) == [nil, 1])
        let again = core.fireTimer(step.timersStarted[0].id, at: start)
        #expect(again == nil)
    }

    /// The next due instant a store keeps is the earliest pending timer's, whatever order they were started in, and
    /// none once the last has fired.
    @Test func theNextDueInstantIsTheEarliestPendingTimers() throws {
        var core = makeCore()
        #expect(core.nextTimerDue == nil)
        let step = try core.apply(
            [.incrementLater(.seconds(9)), .incrementLater(.seconds(2)), .incrementLater(.seconds(5))], to: Counter.key,
            source: .client, at: start)
        #expect(core.nextTimerDue == start.addingTimeInterval(2))
        #expect(core.nextTimerDue == core.pendingTimers.map(\.dueAt).min())
        _ = core.fireTimer(step.timersStarted[1].id, at: start.addingTimeInterval(2))
        #expect(core.nextTimerDue == start.addingTimeInterval(5))
        for timer in [step.timersStarted[0], step.timersStarted[2]] { _ = core.fireTimer(timer.id, at: timer.dueAt) }
        #expect(core.nextTimerDue == nil)
    }

    @Test func theSimulationSpeedDividesDelays() throws {
        var core = SessionCore(
            settings: SessionSettings(simulationSpeed: 4), random: .seeded(3),
            features: [InitialFeature(Counter.key, state: Counter.State())])
        let step = try core.apply([.incrementLater(.seconds(2))], to: Counter.key, source: .client, at: start)
        #expect(step.timersStarted.map(\.delay) == [.milliseconds(500)])
        #expect(step.timersStarted.map(\.dueAt) == [start.addingTimeInterval(0.5)])
    }

    @Test func aWholeCoreEncodesAndDecodesBackEqual() throws {
        var core = makeCore()
        _ = try core.apply([.increment, .pickRandom, .incrementLater(.seconds(9))], to: Counter.key, source: .client, at: start)
        core.idempotency.record(key: "k1", fingerprint: "f1", answer: .init(accepted: 3, version: 4), at: start)
        core.idempotency.markApplied(eventID: "e1")
        let data = try JSONEncoder().encode(core)
        let decoder = JSONDecoder()
        decoder.userInfo[.featureTypes] = FeatureTypes([Counter.self])
        let decoded = try decoder.decode(SessionCore.self, from: data)
        #expect(decoded == core)
        #expect(decoded.pendingTimers.map(\.id) == core.pendingTimers.map(\.id))
        #expect(decoded.idempotency.lookup(key: "k1", fingerprint: "f1", now: start) == .replay(.init(accepted: 3, version: 4)))
        #expect(decoded.idempotency.hasApplied(eventID: "e1"))
    }

    @Test func decodingWithoutTheFeatureTypeFailsNamingTheFeature() throws {
        let data = try JSONEncoder().encode(makeCore())
        let decoder = JSONDecoder()
        decoder.userInfo[.featureTypes] = FeatureTypes([])
        #expect(throws: SchemaError.unknownFeature("counter")) { try decoder.decode(SessionCore.self, from: data) }
    }

    @Test func keysReplayTheirAnswerRefuseAnotherRequestAndExpire() {
        var ledger = IdempotencyLedger()
        let answer = IdempotencyLedger.Answer(accepted: 1, version: 2)
        ledger.record(key: "k", fingerprint: "a", answer: answer, at: start)
        #expect(ledger.lookup(key: "k", fingerprint: "a", now: start) == .replay(answer))
        #expect(ledger.lookup(key: "k", fingerprint: "b", now: start) == .mismatch)
        #expect(ledger.lookup(key: "other", fingerprint: "a", now: start) == .new)
        let later = start.addingTimeInterval(IdempotencyLedger.keyLifetime)
        #expect(ledger.lookup(key: "k", fingerprint: "a", now: later) == .new)
    }

    @Test func theLedgerKeepsOnlyTheNewestKeys() {
        var ledger = IdempotencyLedger()
        for index in 0...IdempotencyLedger.maxKeys {
            ledger.record(key: "k\(index)", fingerprint: "f", answer: .init(accepted: 1, version: index), at: start)
        }
        #expect(ledger.lookup(key: "k0", fingerprint: "f", now: start) == .new)
        #expect(ledger.lookup(key: "k1", fingerprint: "f", now: start) != .new)
    }
}

/// The shell: submissions with keys and event ids, and a session restored from its value.
struct SessionSubmitTests {
    let scheduler = ManualScheduler()

    func makeSession(core: SessionCore? = nil) -> Session {
        let core = core ?? SessionCore(
            settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(Counter.key, state: Counter.State())])
        return Session(id: .random(), token: .random(), core: core, environment: SessionEnvironment(scheduler: scheduler))
    }

    @Test func aRetryWithTheSameKeyGetsTheFirstAnswerAndAppliesOnce() throws {
        let session = makeSession()
        let submission = Submission<Counter.Event>(events: [.increment], idempotency: (key: "k", fingerprint: "f"))
        #expect(try session.submit(submission, to: Counter.key).outcome == .applied(.init(accepted: 1, version: 2)))
        #expect(try session.submit(submission, to: Counter.key).outcome == .replayed(.init(accepted: 1, version: 2)))
        #expect(session.version(of: "counter") == 2)
        let other = Submission<Counter.Event>(events: [.increment, .increment], idempotency: (key: "k", fingerprint: "g"))
        #expect(throws: SessionError.keyReused) { try session.submit(other, to: Counter.key) }
        #expect(session.version(of: "counter") == 2)
    }

    @Test func aRefusedSubmissionLeavesItsKeyUnused() throws {
        let session = makeSession()
        let refused = Submission<Counter.Event>(events: [.decrement], idempotency: (key: "k", fingerprint: "f"))
        #expect(throws: SessionError.self) { try session.submit(refused, to: Counter.key) }
        let fine = Submission<Counter.Event>(events: [.increment], idempotency: (key: "k", fingerprint: "f2"))
        #expect(try session.submit(fine, to: Counter.key).outcome == .applied(.init(accepted: 1, version: 2)))
    }

    @Test func eventsWhoseIdWasAppliedAreSkipped() throws {
        let session = makeSession()
        _ = try session.submit(Submission(events: [Counter.Event.increment], eventIDs: ["a"]), to: Counter.key)
        let again = Submission(events: [Counter.Event.increment, .increment, .increment], eventIDs: ["a", "b", "b"])
        #expect(try session.submit(again, to: Counter.key).outcome == .applied(.init(accepted: 3, version: 3)))
        #expect(session.viewModel(of: Counter.key)?.value.count == 2)
    }

    @Test func aRestoredSessionFiresItsPendingTimersAtTheirDueTime() throws {
        let first = makeSession()
        try first.send([.incrementLater(.seconds(5))], to: Counter.key)
        let restored = makeSession(core: first.core)
        first.close(.shutdown)
        scheduler.advance(by: .seconds(5))
        #expect(restored.viewModel(of: Counter.key)?.value.count == 1)
        #expect(restored.log(after: 0).entries.map(\.event) == ["incrementLater", "increment"])
    }
}
