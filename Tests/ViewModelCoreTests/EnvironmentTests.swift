import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewHostLocking
import ViewModelCore

struct EnvironmentTests {
    @Test func secureIdentifiersHaveTheirLengthAndAlphabetAndDiffer() {
        let ids = (0..<1000).map { _ in SessionID.random().rawValue }
        #expect(Set(ids).count == 1000)
        #expect(ids.allSatisfy { $0.count == 26 })
        #expect(ids.allSatisfy { $0.allSatisfy { "0123456789abcdefghjkmnpqrstvwxyz".contains($0) } })
        #expect(SessionSecret.random().rawValue.count == 52)
    }

    @Test func tokenMatchesOnlyItself() {
        let token = SessionToken(secret: SessionSecret("abcdef"))
        #expect(token.matches("abcdef"))
        #expect(!token.matches("abcdeg"))
        #expect(!token.matches("abcde"))
        #expect(!token.matches("abcdefg"))
        #expect(!token.matches(""))
    }

    @Test func seededRandomRepeatsAndDifferentSeedsDiffer() {
        var first = RandomSource.seeded(1)
        var second = RandomSource.seeded(1)
        var third = RandomSource.seeded(2)
        let a = (0..<10).map { _ in first.next() }
        #expect(a == (0..<10).map { _ in second.next() })
        #expect(a != (0..<10).map { _ in third.next() })
        var bounded = RandomSource.seeded(3)
        #expect((0..<1000).allSatisfy { _ in (0...9).contains(Int.random(in: 0...9, using: &bounded)) })
    }

    @Test func manualSchedulerRunsDueActionsInDeadlineOrderAndMovesNow() {
        let scheduler = ManualScheduler()
        let start = scheduler.now
        let order = Locked<[String]>([])
        _ = scheduler.schedule(after: .seconds(2)) { order.withLock { $0.append("b") } }
        _ = scheduler.schedule(after: .seconds(1)) {
            order.withLock { $0.append("a") }
            _ = scheduler.schedule(after: .milliseconds(500)) { order.withLock { $0.append("a2") } }
        }
        let cancelled = scheduler.schedule(after: .seconds(1)) { order.withLock { $0.append("never") } }
        cancelled.cancel()
        scheduler.advance(by: .seconds(2))
        #expect(order.withLock { $0 } == ["a", "a2", "b"])
        #expect(scheduler.now == start.addingTimeInterval(2))
    }

    /// Actions run in the order of their deadlines. A deadline is fixed when `schedule` is called, and the test can
    /// be paused between two calls on a busy machine, so only the pairs whose order is certain from the times
    /// around the calls are checked (with no pause, all three).
    @Test func liveSchedulerRunsActionsInDeadlineOrder() async {
        let scheduler = LiveTimerScheduler()
        let order = Locked<[Int]>([])
        var bounds: [Int: (earliest: ContinuousClock.Instant, latest: ContinuousClock.Instant)] = [:]
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for delay in [30, 10, 20] {
                let before = ContinuousClock.now
                _ = scheduler.schedule(after: .milliseconds(delay)) {
                    let done = order.withLock { order -> Bool in
                        order.append(delay)
                        return order.count == 3
                    }
                    if done { continuation.resume() }
                }
                bounds[delay] = (before + .milliseconds(delay), ContinuousClock.now + .milliseconds(delay))
            }
            scheduler.schedule(after: .milliseconds(500)) { order.withLock { $0.append(0) } }.cancel()
        }
        let fired = order.withLock { $0 }
        #expect(fired.sorted() == [10, 20, 30])
        for first in fired.indices {
            for later in fired.indices where later > first {
                let (a, b) = (fired[first], fired[later])
                #expect(
                    !(bounds[b]!.latest < bounds[a]!.earliest), "\(b) ms was due before \(a) ms but fired after it: \(fired)")
            }
        }
        scheduler.stop()
    }

    /// Coalescing lets timers fire a little late together, never early.
    @Test func liveSchedulerNeverFiresEarly() async {
        let scheduler = LiveTimerScheduler()
        let fired = Locked<[Duration]>([])
        let start = ContinuousClock.now
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for milliseconds in [30, 10, 20, 20] {
                _ = scheduler.schedule(after: .milliseconds(milliseconds)) {
                    let late = start.duration(to: .now) - .milliseconds(milliseconds)
                    if fired.withLock({ $0.append(late); return $0.count == 4 }) { continuation.resume() }
                }
            }
        }
        #expect(fired.withLock { $0 }.allSatisfy { $0 >= .zero })
        scheduler.stop()
    }
}
