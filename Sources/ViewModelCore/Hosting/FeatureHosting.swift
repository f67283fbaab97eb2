/// How an app hosts feature `F`: its state in a new session, the events that start it, the runner of the outside
/// work it asks for, and how the page draws it. What ``Feature`` leaves to the app: the feature itself stays a
/// pure state machine.
///
/// ```swift
/// FeatureHosting<WeatherApp>(
///     initialState: { _ in WeatherState(provider: services.providerName) },
///     startEvents: [.start],
///     requests: services.perform)
/// ```
public struct FeatureHosting<F: Feature>: Sendable {
    /// The feature's state in a new session made with the given settings. A function of the settings only (it
    /// reads no clock and draws nothing): the host calls it once per distinct settings and shares the value among
    /// the sessions made with them, each copying it when it first changes it.
    public var initialState: @Sendable (SessionSettings) -> F.State
    /// Sent (source `view`) right after a session is made, in order.
    public var startEvents: [F.Event]
    /// Runs one request (``FeatureContext/request(_:)``) and answers with the event to apply; nil when the
    /// feature asks for no outside work. It runs outside the session's lock, concurrently with other requests.
    public var requests: (@Sendable (F.Request) async -> F.Event)?
    /// How the page draws the feature; nil draws it generically from its snapshot.
    public var page: PageRenderer?

    /// Creates a hosting.
    /// - Parameters:
    ///   - initialState: The state in a new session.
    ///   - startEvents: Sent right after a session is made.
    ///   - requests: Runs the feature's outside work.
    ///   - page: How the page draws it.
    public init(
        initialState: @escaping @Sendable (SessionSettings) -> F.State, startEvents: [F.Event] = [],
        requests: (@Sendable (F.Request) async -> F.Event)? = nil, page: PageRenderer? = nil
    ) {
        self.initialState = initialState
        self.startEvents = startEvents
        self.requests = requests
        self.page = page
    }
}

/// A ``FeatureHosting`` of some feature, for code that handles any (the server's app layer, the test host): open
/// it with a generic function to get its feature type back.
public protocol AnyFeatureHosting: Sendable {
    /// The feature hosted.
    associatedtype Hosted: Feature
    /// The hosting itself.
    var hosting: FeatureHosting<Hosted> { get }
}

extension FeatureHosting: AnyFeatureHosting {
    /// The hosting itself.
    public var hosting: FeatureHosting<F> { self }
}
