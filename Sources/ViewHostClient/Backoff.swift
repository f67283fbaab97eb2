/// How long to wait before the next attempt after `failures` failures in a row: exponential from `initial`, at
/// most `maximum`, with "equal jitter" (half fixed, half random) so clients cut off together do not come back
/// together. Pure: the random draw is an argument.
public struct Backoff: Sendable, Equatable {
    /// The wait after the first failure.
    public var initial: Duration
    /// The longest wait.
    public var maximum: Duration

    /// Creates a policy.
    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(15)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The wait after `failures` (≥ 1) failures in a row, for a random draw `random` in `0..<1`.
    public func delay(afterFailures failures: Int, random: Double) -> Duration {
        let exponent = min(max(failures - 1, 0), 30)
        let full = min(initial * (1 << exponent), maximum)
        return full / 2 + full * (min(max(random, 0), 1) / 2)
    }
}
