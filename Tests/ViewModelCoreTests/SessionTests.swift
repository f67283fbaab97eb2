import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewHostLocking
import ViewModelCore

struct SessionTests {
    let scheduler = ManualScheduler()
    let effects = ManualRequestRunner([Counter.runner])
    let probe = UUID().uuidString

    func makeSession(random: RandomSource = .seeded(7), logCapacity: Int = 256) -> (Session, String) {
        let session = Session(
            id: .random(), token: .random(), environment: SessionEnvironment(scheduler: scheduler, requests: effects),
            settings: SessionSettings(logCapacity: logCapacity), random: random,
            features: [InitialFeature(Counter.key, state: Counter.State(probe: probe))])
        return (session, probe)
    }

    @Test func eachChangingEventIsOneVersionAndUnchangedOnesAreNone() {
        let (session, _) = makeSession()
        #expect(session.version(of: "counter") == 1)
        let receipt = try? session.send([.increment, .nothing, .increment], to: Counter.key)
        #expect(receipt == SendReceipt(version: 3, sequence: 3))
        #expect(session.viewModel(of: Counter.key)?.value.count == 2)
    }

    /// A batch is applied all or nothing, whatever observes the session: with a recorder attached, a batch refused at
    /// its third event leaves the value as it was, and the recorder never sees its first two steps. (Observed, a
    /// batch once skipped the copy it is applied to, and kept the steps before the refusal.)
    @Test func aRefusedBatchLeavesNothingBehindEvenWithARecorder() {
        let (session, _) = makeSession()
        let seen = Locked<[Int]>([])
        session.record(Counter.key) { version, _ in seen.withLock { $0.append(version) } }
        #expect(throws: SessionError.self) { try session.send([.increment, .decrement, .decrement], to: Counter.key) }
        #expect(session.version(of: "counter") == 1)
        #expect(session.viewModel(of: Counter.key)?.value.count == 0)
        #expect(session.log(after: 0).entries.isEmpty)
        #expect(seen.withLock { $0 }.isEmpty)
        _ = try? session.send([.increment, .increment], to: Counter.key)
        #expect(seen.withLock { $0 } == [2, 3], "an accepted batch's versions, each once, in order")
    }

    /// The same for the core alone, as `ViewHostTesting`'s `TestHost` drives it: observed or not, a refused batch
    /// changes nothing and is not observed.
    @Test func aRefusedBatchIsNotObservedByTheCore() {
        var core = SessionCore(settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(Counter.key, state: .init())])
        let before = core
        var observed: [Int] = []
        #expect(throws: SessionRefusal.self) {
            try core.apply([Counter.Event.increment, .decrement, .decrement], to: Counter.key, source: .client, at: .now) {
                _, version, _ in observed.append(version)
            }
        }
        #expect(core.version(of: "counter") == before.version(of: "counter"))
        #expect(core.sequence == before.sequence)
        #expect(observed.isEmpty)
    }

    @Test func scheduledEventArrivesAfterItsDelayAsATimerEventCausedByItsScheduler() {
        let (session, _) = makeSession()
        _ = try? session.send([.incrementLater(.milliseconds(500))], to: Counter.key)
        scheduler.advance(by: .milliseconds(499))
        #expect(session.viewModel(of: Counter.key)?.value.count == 0)
        scheduler.advance(by: .milliseconds(1))
        #expect(session.viewModel(of: Counter.key)?.value.count == 1)
        let entries = session.log(after: 0).entries
        #expect(entries.map(\.event) == ["incrementLater", "increment"])
        #expect(entries[1].source == .timer)
        #expect(entries[1].causedBy == entries[0].seq)
        #expect(entries[1].versionAfter == 2)
    }

    @Test func effectResultIsAppliedLaterAsAProviderEventCausedByItsRequest() async {
        let (session, _) = makeSession()
        _ = try? session.send([.fetch(4)], to: Counter.key)
        #expect(session.viewModel(of: Counter.key)?.value.count == 0)
        #expect(effects.pendingCount == 1)
        await effects.runAll()
        #expect(session.viewModel(of: Counter.key)?.value.count == 40)
        let entries = session.log(after: 0).entries
        #expect(entries.map(\.event) == ["fetch", "fetched"])
        #expect(entries[1].source == .provider)
        #expect(entries[1].causedBy == entries[0].seq)
    }

    @Test func cancelledTimerNeverFires() {
        let (session, _) = makeSession()
        _ = try? session.send([.scheduleAndCancel], to: Counter.key)
        scheduler.advance(by: .seconds(5))
        #expect(session.viewModel(of: Counter.key)?.value.count == 0)
        #expect(scheduler.pendingCount == 0)
    }

    /// An event that does nothing but cancel a timer an earlier event scheduled: the slot must still walk what it
    /// asked for (a feature slot skips that walk for an event that asked for nothing).
    @Test func aTimerCancelledByALaterEventNeverFires() {
        let (session, _) = makeSession()
        _ = try? session.send([.incrementLater(.seconds(1))], to: Counter.key)
        _ = try? session.send([.cancelTimer(1)], to: Counter.key)
        scheduler.advance(by: .seconds(5))
        #expect(session.viewModel(of: Counter.key)?.value.count == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func followUpsApplyInTheSameStepAsOneVersionAndAreLoggedAsCaused() {
        let (session, _) = makeSession()
        let receipt = try? session.send([.incrementTwiceNow], to: Counter.key)
        #expect(receipt?.version == 2)
        #expect(session.viewModel(of: Counter.key)?.value.count == 2)
        let entries = session.log(after: 0).entries
        #expect(entries.map(\.source) == [.client, .view, .view])
        #expect(entries.map(\.causedBy) == [nil, 1, 1])
        #expect(entries.allSatisfy { $0.versionAfter == 2 })
    }

    @Test func viewModelIsBuiltLazilyAtMostOncePerVersion() {
        let (session, probe) = makeSession()
        _ = try? session.send([.increment, .increment, .increment], to: Counter.key)
        #expect(Counter.builds.withLock { $0[probe] } == nil)
        _ = session.viewModel(of: Counter.key)
        _ = session.viewModel(of: Counter.key)
        #expect(Counter.builds.withLock { $0[probe] } == 1)
    }

    @Test func representationIsMadeOncePerVersion() {
        let (session, _) = makeSession()
        let made = Locked(0)
        let make: @Sendable (Int, any ViewModel) -> String = { version, _ in
            made.withLock { $0 += 1 }
            return "v\(version)"
        }
        #expect(session.representation(of: "counter", make: make).ready?.value == "v1")
        #expect(session.representation(of: "counter", make: make).ready?.value == "v1")
        _ = try? session.send([.increment], to: Counter.key)
        #expect(session.representation(of: "counter", make: make).ready?.value == "v2")
        #expect(made.withLock { $0 } == 2)
        let missing = session.representation(of: "nope", make: make).ready?.value
        #expect(missing == nil)
    }

    @Test func recordingListenerSeesEveryVersionInOrder() {
        let (session, _) = makeSession()
        let recorder = RecordingListener(session: session, feature: Counter.key)
        _ = try? session.send([.increment, .nothing, .incrementTwiceNow], to: Counter.key)
        #expect(recorder.versions == [2, 3])
        #expect(recorder.snapshots.map(\.count) == [1, 3])
    }

    @Test func seededSessionsDrawTheSameNumbers() {
        let first = makeSession(random: .seeded(42)).0
        let second = makeSession(random: .seeded(42)).0
        for session in [first, second] {
            _ = try? session.send(Array(repeating: .pickRandom, count: 8), to: Counter.key)
        }
        #expect(first.viewModel(of: Counter.key)?.value.picks == second.viewModel(of: Counter.key)?.value.picks)
    }

    @Test func logIsABoundedRing() {
        let (session, _) = makeSession(logCapacity: 3)
        _ = try? session.send(Array(repeating: .increment, count: 5), to: Counter.key)
        let (entries, oldest) = session.log(after: 0)
        #expect(entries.map(\.seq) == [3, 4, 5])
        #expect(oldest == 3)
        #expect(session.log(after: 4).entries.map(\.seq) == [5])
    }

    @Test func waiterWakesOnTheNextVersion() async {
        let (session, _) = makeSession()
        async let woken = session.waitForVersion(of: "counter", after: 1, timeout: .seconds(30))
        while true {
            _ = try? session.send([.increment], to: Counter.key)
            if session.version(of: "counter")! >= 2 { break }
        }
        #expect(await woken != nil)
    }

    @Test func waiterReturnsAtOnceWhenAlreadyNewerAndNilOnTimeout() async {
        let (session, _) = makeSession()
        _ = try? session.send([.increment], to: Counter.key)
        #expect(await session.waitForVersion(of: "counter", after: 1, timeout: .seconds(30)) == 2)
        #expect(await session.waitForVersion(of: "counter", after: 2, timeout: .milliseconds(20)) == nil)
    }

    @Test func closeCancelsTimersAndRefusesEvents() {
        let (session, _) = makeSession()
        _ = try? session.send([.incrementLater(.seconds(1))], to: Counter.key)
        session.close(.deleted)
        #expect(scheduler.pendingCount == 0)
        #expect(throws: SessionError.ended(.deleted)) { try session.send([.increment], to: Counter.key) }
    }

    @Test func observersSeeEachChangeWithItsSequence() {
        let (session, _) = makeSession()
        let seen = Locked<[SessionChange]>([])
        _ = session.stream.addObserver { change in seen.withLock { $0.append(change) } }
        _ = try? session.send([.increment, .nothing, .increment], to: Counter.key)
        #expect(seen.withLock { $0 } == [
            SessionChange(sequence: 1, versions: ["counter": 2]), SessionChange(sequence: 3, versions: ["counter": 3]),
        ])
    }

    /// Closing tells each observer once, last, so a stream can end at once; a second close tells nobody.
    @Test func observersHearTheCloseOnceAndThenNothing() {
        let (session, _) = makeSession()
        let seen = Locked<[SessionChange]>([])
        _ = session.stream.addObserver { change in seen.withLock { $0.append(change) } }
        _ = try? session.send([.increment], to: Counter.key)
        session.close(.expired)
        session.close(.deleted)
        _ = try? session.send([.increment], to: Counter.key)
        #expect(seen.withLock { $0 } == [
            SessionChange(sequence: 1, versions: ["counter": 2]), SessionChange(sequence: 1, versions: [:], end: .expired),
        ])
    }

    /// A stream nobody watches keeps no state, yet changes made before the first watcher are not lost to it: a
    /// long poll after them returns at once, and an unwatched session's end is still told to later comers.
    @Test func anUnwatchedStreamMissesNothingAndKeepsItsEnd() async {
        let (session, _) = makeSession()
        #expect(session.stream.observerCount == 0 && session.stream.end == nil)
        _ = try? session.send([.increment], to: Counter.key)
        #expect(await session.waitForVersion(of: "counter", after: 1, timeout: .seconds(30)) == 2)
        let (other, _) = makeSession()
        other.close(.deleted)
        #expect(other.stream.end == .deleted)
        #expect(other.stream.addObserver { _ in } == nil)
        #expect(await other.waitForVersion(of: "counter", after: 1, timeout: .seconds(30)) == nil)
    }
}
