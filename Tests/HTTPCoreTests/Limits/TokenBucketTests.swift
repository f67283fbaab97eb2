import HTTPCore
import Testing
import TestSupport

/// The token bucket and the keyed limiter, driven by a manual clock: no test waits for a rate.
struct TokenBucketTests {
    typealias Instant = ManualClock.Instant

    @Test func burstPassesThenTheRateApplies() {
        let start = Instant(offset: .zero)
        var bucket = TokenBucket(capacity: 3, perSecond: 1, now: start)
        #expect(bucket.take(at: start) == nil)
        #expect(bucket.take(at: start) == nil)
        #expect(bucket.take(at: start) == nil)
        #expect(bucket.take(at: start) == .seconds(1), "empty: one token takes a second to come back")
        #expect(bucket.take(at: start.advanced(by: .milliseconds(500))) == .milliseconds(500))
        #expect(bucket.take(at: start.advanced(by: .seconds(1))) == nil)
        #expect(bucket.take(at: start.advanced(by: .seconds(1))) != nil)
    }

    @Test func refillStopsAtTheCapacity() {
        let start = Instant(offset: .zero)
        var bucket = TokenBucket(capacity: 2, perSecond: 10, now: start)
        #expect(bucket.take(2, at: start) == nil)
        #expect(!bucket.isFull(at: start))
        let later = start.advanced(by: .seconds(60))
        #expect(bucket.isFull(at: later))
        #expect(bucket.take(2, at: later) == nil)
        #expect(bucket.take(at: later) != nil, "an hour idle still allows only the burst")
    }

    @Test func costAboveTheCapacityCountsAsTheCapacity() {
        let start = Instant(offset: .zero)
        var bucket = TokenBucket(capacity: 5, perSecond: 5, now: start)
        #expect(bucket.take(100, at: start) == nil, "a batch larger than the burst is not refused forever")
        #expect(bucket.take(100, at: start) == .seconds(1))
    }

    @Test func refusedTakeCostsNothing() {
        let start = Instant(offset: .zero)
        var bucket = TokenBucket(capacity: 4, perSecond: 1, now: start)
        #expect(bucket.take(3, at: start) == nil)
        #expect(bucket.take(3, at: start) == .seconds(2))
        #expect(bucket.take(1, at: start) == nil, "the refused take left its token")
    }

    @Test func keysHaveTheirOwnBuckets() {
        let clock = ManualClock()
        let limiter = KeyedRateLimiter<String, ManualClock>(capacity: 2, perSecond: 0.5, clock: clock)
        #expect(limiter.take(for: "a") == nil)
        #expect(limiter.take(for: "a") == nil)
        #expect(limiter.take(for: "a") == .seconds(2))
        #expect(limiter.take(for: "b") == nil, "another key is not affected")
        clock.advance(by: .seconds(2))
        #expect(limiter.take(for: "a") == nil)
    }

    @Test func idleKeysAreForgotten() {
        let clock = ManualClock()
        let limiter = KeyedRateLimiter<Int, ManualClock>(capacity: 10, perSecond: 10, clock: clock)
        for key in 0..<1000 { #expect(limiter.take(for: key) == nil) }
        #expect(limiter.trackedKeyCount == 1000)
        clock.advance(by: .seconds(2))  // every bucket refilled: they hold nothing a new one would not
        #expect(limiter.take(for: -1) == nil)
        #expect(limiter.trackedKeyCount == 1)
    }

    @Test func memoryStaysBoundedUnderManyBusyKeys() {
        let clock = ManualClock()
        let limiter = KeyedRateLimiter<Int, ManualClock>(capacity: 1, perSecond: 0.001, maxKeys: 100, clock: clock)
        for key in 0..<10_000 {
            _ = limiter.take(for: key)
            #expect(limiter.trackedKeyCount <= 100)
        }
    }
}
