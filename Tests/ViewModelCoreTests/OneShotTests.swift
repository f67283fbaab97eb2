import Dispatch
import Testing
import ViewHostLocking

/// A value given once (what a commit ticket and a prepared asset wait on): every waiter gets it once, from any
/// thread; a late waiter gets it at once; a second give changes nothing.
struct OneShotTests {
    @Test func everyWaiterGetsTheFirstValueOnceAndLateOnesAtOnce() async {
        let shot = OneShot<Int>()
        let seen = Locked<[Int]>([])
        for _ in 0..<50 { shot.whenGiven { value in seen.withLock { $0.append(value) } } }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                #expect(shot.give(7))
                #expect(!shot.give(8))
                done.resume()
            }
        }
        #expect(seen.withLock { $0 } == Array(repeating: 7, count: 50))
        let late = Locked<Int?>(nil)
        shot.whenGiven { value in late.withLock { $0 = value } }  // called on this thread, before whenGiven returns
        #expect(late.withLock { $0 } == 7)
    }
}
