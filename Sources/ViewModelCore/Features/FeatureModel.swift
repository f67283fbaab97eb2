/// One feature's state in one session: events in, a view model out (the MVVM "model + router" pair).
///
/// Contract:
/// - The host calls every method with the session locked: one call at a time, in event order. A model is
///   never shared between sessions and holds no global state.
/// - ``apply(_:context:)`` changes state and asks the context for side effects: ``FeatureContext/markChanged()``
///   when the view model may differ, ``FeatureContext/schedule(_:after:source:)`` for delayed events (timers,
///   the simulated other side), ``FeatureContext/route(_:source:)`` for follow-up events now.
/// - ``makeViewModel()`` is a pure function of the state; the host calls it lazily, at most once per version.
public protocol FeatureModel: AnyObject, SendableMetatype {
    /// The events the feature's routers accept, client and internal ones alike.
    associatedtype Event: Sendable
    /// The snapshot value.
    associatedtype Snapshot: ViewModel

    /// Applies one event.
    func apply(_ event: Event, context: inout FeatureContext<Event>)

    /// The view model of the current state.
    func makeViewModel() -> Snapshot

    /// The event's name and a short payload summary, for the data-flow log.
    static func describe(_ event: Event) -> EventDescription
}

/// How the data-flow log shows an event.
public struct EventDescription: Sendable, Equatable {
    /// The event's name as the original names it, such as `sending` or `changeLocation`.
    public var name: String
    /// A short payload summary, such as `contact=John text="Hi"` (truncated).
    public var summary: String

    /// Creates a description; `summary` is cut to 120 characters.
    public init(name: String, summary: String = "") {
        self.name = name
        self.summary = summary.count > 120 ? String(summary.prefix(119)) + "…" : summary
    }
}
