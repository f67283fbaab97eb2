/// Runs a feature's asynchronous work (provider calls) outside the session's lock.
///
/// Contract: `run` returns at once; the work runs later, at most once. Implementations: ``LiveEffectRunner``
/// (a task per effect) and the test runner that runs queued effects only when told to.
public protocol EffectRunning: Sendable {
    /// Starts `work`.
    func run(_ work: @escaping @Sendable () async -> Void)
}

/// Runs each effect on a task of its own.
public struct LiveEffectRunner: EffectRunning {
    /// Creates the runner.
    public init() {}

    public func run(_ work: @escaping @Sendable () async -> Void) {
        Task.detached { await work() }
    }
}
