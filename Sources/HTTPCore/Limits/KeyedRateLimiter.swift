import ViewHostLocking

/// One ``TokenBucket`` per key (a client address, a session), shared by every event loop, in bounded memory: a
/// bucket that has refilled is dropped (it knows nothing a new one would not), and when `maxKeys` buckets are
/// still in use after that, half of them are forgotten, which only ever errs on the side of letting requests in.
///
/// ```swift
/// let limiter = KeyedRateLimiter<String, ContinuousClock>(capacity: 600, perSecond: 10, clock: ContinuousClock())
/// if let wait = limiter.take(for: clientAddress) { throw tooManyRequests(retryAfter: wait) }
/// ```
public final class KeyedRateLimiter<Key: Hashable & Sendable, C: Clock>: Sendable where C.Duration == Duration {
    private struct State {
        var buckets: [Key: TokenBucket<C.Instant>] = [:]
        var nextSweep: C.Instant
    }

    /// The burst each key gets.
    public let capacity: Double
    /// Tokens per second each key gets back.
    public let rate: Double
    /// The most buckets kept at once.
    public let maxKeys: Int
    private let clock: C
    private let sweepInterval: Duration
    private let state: Locked<State>

    /// Creates a limiter.
    /// - Parameters:
    ///   - capacity: The burst per key.
    ///   - rate: Tokens per second per key.
    ///   - maxKeys: The most buckets kept (memory bound).
    ///   - clock: The time source (a manual clock in tests).
    public init(capacity: Double, perSecond rate: Double, maxKeys: Int = 100_000, clock: C) {
        self.capacity = capacity
        self.rate = rate
        self.maxKeys = max(maxKeys, 2)
        self.clock = clock
        // Idle buckets are looked for about as often as a bucket takes to refill (at least every second).
        self.sweepInterval = .seconds(max(1, capacity / rate))
        self.state = Locked(State(nextSweep: clock.now.advanced(by: .seconds(max(1, capacity / rate)))))
    }

    /// Takes `cost` tokens from `key`'s bucket.
    /// - Returns: nil when allowed; otherwise how long until the request would be allowed.
    public func take(_ cost: Double = 1, for key: Key) -> Duration? {
        let now = clock.now
        return state.withLock { state in
            if now >= state.nextSweep || state.buckets.count >= maxKeys {
                Self.sweep(&state, now: now, maxKeys: maxKeys)
                state.nextSweep = now.advanced(by: sweepInterval)
            }
            return state.buckets[key, default: TokenBucket(capacity: capacity, perSecond: rate, now: now)]
                .take(cost, at: now)
        }
    }

    /// Buckets held now (for tests and metrics).
    public var trackedKeyCount: Int { state.withLock { $0.buckets.count } }

    private static func sweep(_ state: inout State, now: C.Instant, maxKeys: Int) {
        state.buckets = state.buckets.filter { !$0.value.isFull(at: now) }
        guard state.buckets.count >= maxKeys else { return }
        // Still full of busy keys (many clients at once): forget half, in the dictionary's arbitrary order, so
        // the cost stays amortised O(1) per call instead of a scan per new key.
        var kept = 0
        state.buckets = state.buckets.filter { _ in
            kept += 1
            return kept <= maxKeys / 2
        }
    }
}
