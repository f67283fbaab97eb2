public import Logging
import ViewHostLocking

/// One log line per request the server refuses (a limit: `408`, `413`, `414`, `429`, `431`, `503`; or a request
/// it cannot parse), with the reason, at most `burst` lines at once and `linesPerSecond` after that, so a flood of
/// bad requests cannot fill the disk. Lines it drops are counted, and the next line it writes says how many
/// (`suppressed`).
///
/// ```swift
/// let refusals = RefusalLog(logger: logger, clock: ContinuousClock())
/// refusals.record(status: 429, reason: "too many sessions from this client", requestID: id, peer: "10.0.0.7")
/// ```
public final class RefusalLog<C: Clock>: Sendable where C.Duration == Duration {
    private struct State {
        var bucket: TokenBucket<C.Instant>
        var suppressed = 0
    }

    private let logger: Logger
    private let clock: C
    private let state: Locked<State>

    /// Creates a log.
    /// - Parameters:
    ///   - logger: Where lines go (at `notice`).
    ///   - linesPerSecond: Lines per second in a steady flood.
    ///   - burst: Lines written at once before the rate applies.
    ///   - clock: The time source (a manual clock in tests).
    public init(logger: Logger, linesPerSecond: Double = 5, burst: Double = 20, clock: C) {
        self.logger = logger
        self.clock = clock
        self.state = Locked(State(bucket: TokenBucket(capacity: burst, perSecond: linesPerSecond, now: clock.now)))
    }

    /// Logs one refusal, unless the rate is spent (then it is only counted).
    /// - Parameters:
    ///   - status: The status the request got.
    ///   - reason: Why, in words (the problem's detail, or the parser's error).
    ///   - requestID: The request id the response carried.
    ///   - peer: The client's address.
    /// - Returns: Whether a line was written.
    @discardableResult
    public func record(status: Int, reason: String, requestID: String, peer: String?) -> Bool {
        let now = clock.now
        let suppressed: Int? = state.withLock { state in
            guard state.bucket.take(at: now) == nil else {
                state.suppressed += 1
                return nil
            }
            defer { state.suppressed = 0 }
            return state.suppressed
        }
        guard let suppressed else { return false }
        var metadata: Logger.Metadata = [
            "status": .stringConvertible(status), "reason": .string(reason), "request-id": .string(requestID),
        ]
        if let peer { metadata["peer"] = .string(peer) }
        if suppressed > 0 { metadata["suppressed"] = .stringConvertible(suppressed) }
        logger.notice("refused request", metadata: metadata)
        return true
    }
}
