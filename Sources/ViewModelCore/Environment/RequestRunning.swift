/// Runs the outside work features ask for (``FeatureContext/request(_:)``) and answers with the event to apply.
///
/// Contract: ``start(_:feature:completion:)`` returns at once; the work runs later, at most once, and
/// `completion` is called once with the feature's event (or nil when the runner has nothing for that feature).
/// Implementations: ``FeatureRequestRunners`` (a task per request, by feature) and the test runner that runs
/// queued requests only when told to.
public protocol RequestRunning: Sendable {
    /// Starts `request` for `feature`.
    func start(
        _ request: any Sendable, feature: String, completion: @escaping @Sendable ((any Sendable)?) -> Void)
}

/// For sessions whose features ask for no outside work.
public struct NoRequests: RequestRunning {
    /// Creates the runner.
    public init() {}

    /// Answers every request with nil at once, as no feature of the session asks for outside work.
    public func start(
        _ request: any Sendable, feature: String, completion: @escaping @Sendable ((any Sendable)?) -> Void
    ) {
        completion(nil)
    }
}

/// One feature's outside work: its request in, its event out.
public struct FeatureRequestRunner: Sendable {
    /// The feature whose requests it runs.
    public let feature: String
    private let perform: @Sendable (any Sendable) async -> (any Sendable)?

    /// Runs `key`'s requests with `perform`.
    public init<F: Feature>(_ key: FeatureKey<F>, perform: @escaping @Sendable (F.Request) async -> F.Event) {
        feature = key.name
        self.perform = { request in
            guard let request = request as? F.Request else { return nil }
            return await perform(request)
        }
    }

    /// Runs one request of the feature.
    /// - Returns: The event it answers with, or nil when `request` is not the feature's request type.
    public func run(_ request: any Sendable) async -> (any Sendable)? {
        await perform(request)
    }
}

/// Runs each feature's requests with its own runner, each on a task of its own.
public struct FeatureRequestRunners: RequestRunning {
    private let runners: [String: FeatureRequestRunner]

    /// Runs requests with `runners` (one per feature).
    public init(_ runners: [FeatureRequestRunner]) {
        self.runners = Dictionary(runners.map { ($0.feature, $0) }, uniquingKeysWith: { $1 })
    }

    /// Runs `request` with the runner of `feature` on a detached task and hands `completion` its answer; a feature
    /// with no runner gets nil at once.
    public func start(
        _ request: any Sendable, feature: String, completion: @escaping @Sendable ((any Sendable)?) -> Void
    ) {
        guard let runner = runners[feature] else { return completion(nil) }
        Task.detached { completion(await runner.run(request)) }
    }
}
