import Foundation

extension ViewHostClient {
    /// How a client retries, reconnects and waits. The defaults suit an app; tests shorten the waits and inject
    /// `sleep` and `random`.
    public struct Configuration: Sendable {
        /// How many times one logical send is tried in all (the first try included) when no answer comes or the
        /// server asks to retry; every try carries the same `Idempotency-Key`. Six tries with the default backoff
        /// wait about 6 s in all: long enough for a server restarted in place or a node switched behind a proxy.
        public var sendAttempts = 6
        /// Waits between tries of a send.
        public var sendBackoff = Backoff(initial: .milliseconds(200), maximum: .seconds(5))
        /// Waits between reconnects of a change stream that failed (the server's `retry:` is the least wait after
        /// a stream that ended cleanly).
        public var reconnectBackoff = Backoff(initial: .milliseconds(250), maximum: .seconds(15))
        /// How long one long poll waits (the server allows at most 60 seconds).
        public var longPollWait: Duration = .seconds(30)
        /// How long the change stream keeps long polling after a stream was refused (`429`/`503`) before it tries
        /// a stream again (at least the answer's `Retry-After`).
        public var fallbackPeriod: Duration = .seconds(30)
        /// A request that receives nothing for this long fails (an event stream gets a comment at least every 15 s).
        public var idleTimeout: Duration = .seconds(60)
        /// The largest answer read, in bytes (16 MiB): a larger one is cut off and fails as an invalid response, so
        /// a wrong server or a runaway answer cannot take the client's memory. Event streams are not bounded.
        public var maxAnswerBytes = 16 * 1024 * 1024
        /// Waits; replace to test without real time.
        public var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
        /// A random draw in `0..<1` for the backoff's jitter; replace for repeatable waits.
        public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
        /// A new `Idempotency-Key` for each logical send.
        public var makeIdempotencyKey: @Sendable () -> String = { UUID().uuidString.lowercased() }

        /// The defaults.
        public init() {}
    }
}
