/// What a session's shell gets from outside: the scheduler that tells the time and runs its timers, the runner of
/// its features' outside work (provider calls), the journal that keeps its inputs (none: memory only), and the
/// courier that takes its deliveries to other sessions.
///
/// Every session of a process is usually made with the same environment, so its parts are kept in one shared
/// object: a session holds a reference, not a copy of each part (a change to a copy makes it its own object).
public struct SessionEnvironment: Sendable {
    private struct Parts: Sendable {
        var scheduler: any TimerScheduling
        var requests: any RequestRunning
        var journal: (any SessionJournal)?
        var historyInputs: Int
        var onStorageFailure: (@Sendable (SessionID) -> Void)?
        var onUnstorable: (@Sendable (SessionID, UnstorableValue) -> Void)?
        var courier: (any DeliveryCourier)?
        var maxPendingDeliveries: Int?
    }

    private final class Shared: Sendable {
        let parts: Parts

        init(_ parts: Parts) {
            self.parts = parts
        }
    }

    private var shared: Shared

    /// Runs timers; tells the wall-clock time.
    public var scheduler: any TimerScheduling {
        get { shared.parts.scheduler }
        set { change { $0.scheduler = newValue } }
    }

    /// Runs the features' requests and answers with their events.
    public var requests: any RequestRunning {
        get { shared.parts.requests }
        set { change { $0.requests = newValue } }
    }

    /// Keeps the session's inputs durable; nil keeps nothing (the memory store).
    public var journal: (any SessionJournal)? {
        get { shared.parts.journal }
        set { change { $0.journal = newValue } }
    }

    /// How many of its latest inputs a session without a journal keeps in memory, so its past versions can be
    /// rebuilt (``HeldHistory``); 0 keeps none. A journal keeps a durable session's history instead.
    public var historyInputs: Int {
        get { shared.parts.historyInputs }
        set { change { $0.historyInputs = max(0, newValue) } }
    }

    /// Told when the journal could not keep an applied input: the session closed itself, and its owner should
    /// drop it so the next lookup loads the durable value.
    public var onStorageFailure: (@Sendable (SessionID) -> Void)? {
        get { shared.parts.onStorageFailure }
        set { change { $0.onStorageFailure = newValue } }
    }

    /// Told when a session stopped because a value of it cannot be stored (``SessionEnd/unstorable``): its owner
    /// reports it (one critical log line), and keeps the stopped session, so its requests are answered `500`.
    public var onUnstorable: (@Sendable (SessionID, UnstorableValue) -> Void)? {
        get { shared.parts.onUnstorable }
        set { change { $0.onUnstorable = newValue } }
    }

    /// Takes the sessions' deliveries to contacts to their receivers, once the input that made them is durable;
    /// nil keeps them in their sessions' outboxes (a session alone, as in a test of one).
    public var courier: (any DeliveryCourier)? {
        get { shared.parts.courier }
        set { change { $0.courier = newValue } }
    }

    /// The most deliveries a session may have waiting for their receivers: a client's request finding that many, or
    /// whose events would leave more, is refused (``SessionError/deliveriesWaiting(limit:)``); nil: no bound.
    public var maxPendingDeliveries: Int? {
        get { shared.parts.maxPendingDeliveries }
        set { change { $0.maxPendingDeliveries = newValue } }
    }

    /// Creates an environment.
    public init(
        scheduler: any TimerScheduling, requests: any RequestRunning = NoRequests(),
        journal: (any SessionJournal)? = nil, historyInputs: Int = 0,
        onStorageFailure: (@Sendable (SessionID) -> Void)? = nil,
        onUnstorable: (@Sendable (SessionID, UnstorableValue) -> Void)? = nil,
        courier: (any DeliveryCourier)? = nil, maxPendingDeliveries: Int? = nil
    ) {
        shared = Shared(
            Parts(
                scheduler: scheduler, requests: requests, journal: journal, historyInputs: max(0, historyInputs),
                onStorageFailure: onStorageFailure, onUnstorable: onUnstorable, courier: courier,
                maxPendingDeliveries: maxPendingDeliveries))
    }

    /// This copy's parts changed by `body`, in an object of this copy's own.
    private mutating func change(_ body: (inout Parts) -> Void) {
        var parts = shared.parts
        body(&parts)
        shared = Shared(parts)
    }
}
