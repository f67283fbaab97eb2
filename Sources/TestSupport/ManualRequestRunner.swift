import ViewHostLocking
import ViewModelCore

/// Queues the requests sessions start and runs them only when a test says so, one at a time, in the order they
/// were started, so provider answers arrive deterministically (and a test can hold one back to check "latest
/// wins").
public final class ManualRequestRunner: RequestRunning {
    private struct Pending {
        let request: any Sendable
        let feature: String
        let completion: @Sendable ((any Sendable)?) -> Void
    }

    private let runners: [String: FeatureRequestRunner]
    private let queue = Locked<[Pending]>([])

    /// A runner that runs each feature's requests with its runner in `runners` when told to.
    public init(_ runners: [FeatureRequestRunner] = []) {
        self.runners = Dictionary(runners.map { ($0.feature, $0) }, uniquingKeysWith: { $1 })
    }

    /// Queues `request` until the test runs it (``runNext()``, ``runLast()``, ``runAll(limit:)``), so the test decides
    /// when and in which order answers arrive.
    public func start(
        _ request: any Sendable, feature: String, completion: @escaping @Sendable ((any Sendable)?) -> Void
    ) {
        queue.withLock { $0.append(Pending(request: request, feature: feature, completion: completion)) }
    }

    /// Requests waiting to run.
    public var pendingCount: Int { queue.withLock { $0.count } }

    /// The requests waiting to run, oldest first.
    public var pendingRequests: [any Sendable] { queue.withLock { $0.map(\.request) } }

    /// Runs the oldest waiting request; returns false when none waits.
    @discardableResult
    public func runNext() async -> Bool {
        guard let pending = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return false }
        await run(pending)
        return true
    }

    /// Runs the newest waiting request first (to test that a stale answer arriving late is ignored).
    @discardableResult
    public func runLast() async -> Bool {
        guard let pending = queue.withLock({ $0.isEmpty ? nil : $0.removeLast() }) else { return false }
        await run(pending)
        return true
    }

    /// Runs requests until none wait, including the ones they start (bounded by `limit`).
    public func runAll(limit: Int = 1000) async {
        for _ in 0..<limit {
            guard await runNext() else { return }
        }
    }

    private func run(_ pending: Pending) async {
        pending.completion(await runners[pending.feature]?.run(pending.request))
    }
}
