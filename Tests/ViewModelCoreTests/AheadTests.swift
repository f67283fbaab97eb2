import Foundation
import Testing
import ViewHostLocking
import ViewModelCore

/// ``Ahead`` hands over every part in order, each made once, the next started only when one is taken; what `make`
/// throws reaches the caller at that part, and nothing is made after it; a part handed back is freed by the thread
/// that makes the next one.
struct AheadTests {
    private struct Broken: Error, Equatable {}

    @Test func partsComeInOrderEachMadeOnceAndNoneAfterTheLast() throws {
        let made = Locked(0)
        let ahead = Ahead { () -> Int? in
            made.withLock { count -> Int? in
                count += 1
                return count <= 5 ? count : nil
            }
        }
        var parts: [Int] = []
        while let part = try ahead.next() { parts.append(part) }
        #expect(parts == [1, 2, 3, 4, 5])
        #expect(try ahead.next() == nil)
        // The nil that ended it was made once; nothing after it.
        #expect(made.withLock { $0 } == 6)
    }

    @Test func aFailureReachesTheCallerAtItsPartAndEndsTheParts() throws {
        let made = Locked(0)
        let ahead = Ahead { () throws -> Int? in
            let count = made.withLock { count -> Int in
                count += 1
                return count
            }
            if count == 3 { throw Broken() }
            return count
        }
        #expect(try ahead.next() == 1)
        #expect(try ahead.next() == 2)
        #expect(throws: Broken.self) { try ahead.next() }
        #expect(try ahead.next() == nil)
        #expect(made.withLock { $0 } == 3)
    }

    /// A part handed back with ``Ahead/done(with:)`` is freed by the thread that makes the part after the next, not
    /// the caller's; the last, handed back once nothing more is made, goes with the `Ahead`.
    @Test func aPartHandedBackIsFreedOffTheCallersThread() async throws {
        let log = FreedPart.Log([:])
        let made = Locked(0)
        let caller = UInt(pthread_self())
        do {
            let ahead = Ahead { () -> FreedPart? in
                let number = made.withLock { count -> Int in
                    count += 1
                    return count
                }
                return number <= 6 ? FreedPart(number: number, log: log) : nil
            }
            // Synchronous from here to the end: no part can be made on this thread meanwhile.
            while let part = try ahead.next() {
                #expect(UInt(pthread_self()) == caller)
                ahead.done(with: part)
            }
        }
        let threads = try await FreedPart.all(6, in: log)
        #expect(threads.count == 6, "every part is freed once")
        for number in 1...5 { #expect(try #require(threads[number]).freed != caller, "part \(number)") }
    }
}
