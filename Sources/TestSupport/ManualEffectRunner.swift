import Synchronization
import ViewModelCore

/// Queues effects and runs them only when a test says so, one at a time, in the order they were started, so
/// provider answers arrive deterministically (and a test can hold one back to check "latest wins").
public final class ManualEffectRunner: EffectRunning {
    private let queue = Mutex<[@Sendable () async -> Void]>([])

    /// Creates an empty runner.
    public init() {}

    public func run(_ work: @escaping @Sendable () async -> Void) {
        queue.withLock { $0.append(work) }
    }

    /// Effects waiting to run.
    public var pendingCount: Int { queue.withLock { $0.count } }

    /// Runs the oldest waiting effect; returns false when none waits.
    @discardableResult
    public func runNext() async -> Bool {
        guard let work = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return false }
        await work()
        return true
    }

    /// Runs the newest waiting effect first (to test that a stale answer arriving late is ignored).
    @discardableResult
    public func runLast() async -> Bool {
        guard let work = queue.withLock({ $0.isEmpty ? nil : $0.removeLast() }) else { return false }
        await work()
        return true
    }

    /// Runs effects until none wait, including the ones they start (bounded by `limit`).
    public func runAll(limit: Int = 1000) async {
        for _ in 0..<limit {
            guard await runNext() else { return }
        }
    }
}
