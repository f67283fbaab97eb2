/// What a session's shell gets from outside: the scheduler that tells the time and runs its timers, the runner of
/// its features' outside work (provider calls), and the journal that keeps its inputs (none: memory only).
///
/// Every session of a process is usually made with the same environment, so its parts are kept in one shared
/// object: a session holds a reference, not a copy of each part (a change to a copy makes it its own object).
public struct SessionEnvironment: Sendable {
    private final class Parts: Sendable {
        let scheduler: any TimerScheduling
        let requests: any RequestRunning
        let journal: (any SessionJournal)?
        let historyInputs: Int
        let onStorageFailure: (@Sendable (SessionID) -> Void)?

        init(
            scheduler: any TimerScheduling, requests: any RequestRunning, journal: (any SessionJournal)?,
            historyInputs: Int, onStorageFailure: (@Sendable (SessionID) -> Void)?
        ) {
            self.scheduler = scheduler
            self.requests = requests
            self.journal = journal
            self.historyInputs = max(0, historyInputs)
            self.onStorageFailure = onStorageFailure
        }

        func with(
            scheduler: (any TimerScheduling)? = nil, requests: (any RequestRunning)? = nil,
            journal: (any SessionJournal)?? = nil, historyInputs: Int? = nil,
            onStorageFailure: (@Sendable (SessionID) -> Void)?? = nil
        ) -> Parts {
            Parts(
                scheduler: scheduler ?? self.scheduler, requests: requests ?? self.requests,
                journal: journal ?? self.journal, historyInputs: historyInputs ?? self.historyInputs,
                onStorageFailure: onStorageFailure ?? self.onStorageFailure)
        }
    }

    private var parts: Parts

    /// Runs timers; tells the wall-clock time.
    public var scheduler: any TimerScheduling {
        get { parts.scheduler }
        set { parts = parts.with(scheduler: newValue) }
    }

    /// Runs the features' requests and answers with their events.
    public var requests: any RequestRunning {
        get { parts.requests }
        set { parts = parts.with(requests: newValue) }
    }

    /// Keeps the session's inputs durable; nil keeps nothing (the memory store).
    public var journal: (any SessionJournal)? {
        get { parts.journal }
        set { parts = parts.with(journal: .some(newValue)) }
    }

    /// How many of its latest inputs a session without a journal keeps in memory, so its past versions can be
    /// rebuilt (``HeldHistory``); 0 keeps none. A journal keeps a durable session's history instead.
    public var historyInputs: Int {
        get { parts.historyInputs }
        set { parts = parts.with(historyInputs: newValue) }
    }

    /// Told when the journal could not keep an applied input: the session closed itself, and its owner should
    /// drop it so the next lookup loads the durable value.
    public var onStorageFailure: (@Sendable (SessionID) -> Void)? {
        get { parts.onStorageFailure }
        set { parts = parts.with(onStorageFailure: .some(newValue)) }
    }

    /// Creates an environment.
    public init(
        scheduler: any TimerScheduling, requests: any RequestRunning = NoRequests(),
        journal: (any SessionJournal)? = nil, historyInputs: Int = 0,
        onStorageFailure: (@Sendable (SessionID) -> Void)? = nil
    ) {
        parts = Parts(
            scheduler: scheduler, requests: requests, journal: journal, historyInputs: historyInputs,
            onStorageFailure: onStorageFailure)
    }
}
