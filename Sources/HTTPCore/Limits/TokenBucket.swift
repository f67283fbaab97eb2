/// A token bucket (RFC 2697's single-rate form): up to `capacity` tokens, refilled continuously at `rate` tokens
/// per second; a request that costs `n` tokens passes when the bucket holds `n`, and otherwise learns how long
/// until it would. A pure value: the caller passes the time, so tests drive it with a manual clock.
///
/// ```swift
/// var bucket = TokenBucket(capacity: 10, perSecond: 10, now: clock.now)
/// if let wait = bucket.take(at: clock.now) { refuse(retryAfter: wait) }
/// ```
public struct TokenBucket<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// The most tokens the bucket holds (the burst it allows).
    public let capacity: Double
    /// Tokens added per second.
    public let rate: Double
    private var tokens: Double
    private var updated: Instant

    /// A full bucket.
    /// - Parameters:
    ///   - capacity: The burst, at least 1.
    ///   - rate: Tokens per second, more than 0.
    ///   - now: The current time.
    public init(capacity: Double, perSecond rate: Double, now: Instant) {
        precondition(capacity >= 1 && rate > 0, "a token bucket needs a capacity of at least 1 and a positive rate")
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.updated = now
    }

    /// Takes `cost` tokens if the bucket holds them.
    /// - Parameters:
    ///   - cost: Tokens to take; more than the capacity counts as the capacity (else it could never pass).
    ///   - now: The current time (earlier than the last call counts as the last call's time).
    /// - Returns: nil when taken; otherwise how long until the bucket would hold `cost` tokens.
    public mutating func take(_ cost: Double = 1, at now: Instant) -> Duration? {
        refill(at: now)
        let needed = min(cost, capacity)
        if tokens >= needed {
            tokens -= needed
            return nil
        }
        return .seconds((needed - tokens) / rate)
    }

    /// Whether the bucket is full at `now`: it then remembers nothing a fresh bucket would not, and can be dropped.
    public func isFull(at now: Instant) -> Bool {
        tokens + elapsedSeconds(to: now) * rate >= capacity
    }

    private mutating func refill(at now: Instant) {
        tokens = min(capacity, tokens + elapsedSeconds(to: now) * rate)
        if updated < now { updated = now }
    }

    private func elapsedSeconds(to now: Instant) -> Double {
        guard updated < now else { return 0 }
        let elapsed = updated.duration(to: now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
