import Dispatch
import Foundation
import Testing
import ViewHostLocking

@testable import ViewModelCore

/// ``SharedParts`` hands out every part once and in order, whichever thread prepared it; the caller prepares a later
/// part while the one it needs is being prepared ahead; no more than ``SharedParts/mostAhead`` wait their turn; and
/// a part handed back is freed by the thread that made it.
struct SharedPartsTests {
    /// Numbers 0..<count, a part each.
    private static func counter(_ count: Int) -> () -> Int? {
        var next = 0
        return {
            guard next < count else { return nil }
            next += 1
            return next - 1
        }
    }

    @Test func everyPartComesOnceInOrderAndBothThreadsPrepare() {
        // Part 0 is not finished until part 1 is: whichever thread takes part 0, the other must prepare part 1.
        let firstDone = DispatchSemaphore(value: 0)
        let preparedBy = Locked<[Int: String]>([:])
        let parts = SharedParts<Int, Int>(
            claim: Self.counter(200),
            prepare: { work in
                if work == 0 { _ = firstDone.wait(timeout: .now() + 60) }
                preparedBy.withLock { $0[work] = "\(Thread.current)" }
                if work == 1 { firstDone.signal() }
                return work * 10
            })
        var handed: [Int] = []
        while let part = parts.next() { handed.append(part) }
        #expect(handed == (0..<200).map { $0 * 10 })
        #expect(parts.next() == nil)
        let threads = preparedBy.withLock { $0 }
        #expect(threads.count == 200)
        #expect(threads[0] != threads[1], "the part after the one prepared ahead was prepared by the caller")
    }

    @Test func noMoreThanMostAheadArePreparedBeforeTheirTurn() async throws {
        let claimed = Locked(0)
        var next = 0
        let parts = SharedParts<Int, Int>(
            mostAhead: 3,
            claim: {
                next += 1
                claimed.withLock { $0 = next }
                return next
            },
            prepare: { $0 })
        // Nobody takes a part: the thread ahead prepares three and waits.
        let deadline = ContinuousClock.now + .seconds(30)
        while claimed.withLock({ $0 }) < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(claimed.withLock { $0 } == 3)
        #expect(parts.next() == 1)
        #expect(parts.next() == 2)
    }

    /// A part the caller is done with comes back with its next call, and the thread that prepared it frees it: the
    /// thread ahead its own (while it runs, so at least until the work is all claimed), the caller the ones it made.
    @Test func aReturnedPartIsFreedByTheThreadThatPreparedIt() async throws {
        let count = 60
        let mostAhead = 4
        let log = FreedPart.Log([:])
        let firstDone = DispatchSemaphore(value: 0)
        let parts = SharedParts<Int, FreedPart>(
            mostAhead: mostAhead, claim: Self.counter(count),
            prepare: { work in
                // As above: the thread that takes part 0 waits for the other to prepare part 1, so both prepare.
                if work == 0 { _ = firstDone.wait(timeout: .now() + 60) }
                defer { if work == 1 { firstDone.signal() } }
                return FreedPart(number: work, log: log)
            })
        var previous: FreedPart?
        var handed: [Int] = []
        while let part = parts.next(returning: consume previous) {
            handed.append(part.number)
            previous = part
        }
        previous = nil
        #expect(handed == Array(0..<count))
        let freed = try await FreedPart.all(count, in: log)
        #expect(freed.count == count, "every part is freed once")
        #expect(Set(freed.values.map(\.made)).count == 2, "both threads prepared parts")
        // Claimed all (so the thread ahead may have ended) only once the caller holds the last few.
        for number in 0..<(count - mostAhead - 3) {
            let threads = try #require(freed[number])
            #expect(threads.made == threads.freed, "part \(number)")
        }
    }

    @Test func noPartsAtAllEndAtOnce() {
        let parts = SharedParts<Int, Int>(claim: Self.counter(0), prepare: { $0 })
        #expect(parts.next() == nil)
    }
}
