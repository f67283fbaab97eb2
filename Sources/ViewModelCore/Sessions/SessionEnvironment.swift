/// What a session's shell gets from outside: the scheduler that tells the time and runs its timers, the runner of
/// its features' outside work (provider calls), and the journal that keeps its inputs (none: memory only).
public struct SessionEnvironment: Sendable {
    /// Runs timers; tells the wall-clock time.
    public var scheduler: any TimerScheduling
    /// Runs the features' requests and answers with their events.
    public var requests: any RequestRunning
    /// Keeps the session's inputs durable; nil keeps nothing (the memory store).
    public var journal: (any SessionJournal)?
    /// How many of its latest inputs a session without a journal keeps in memory, so its past versions can be
    /// rebuilt (``HeldHistory``); 0 keeps none. A journal keeps a durable session's history instead.
    public var historyInputs: Int
    /// Told when the journal could not keep an applied input: the session closed itself, and its owner should
    /// drop it so the next lookup loads the durable value.
    public var onStorageFailure: (@Sendable (SessionID) -> Void)?

    /// Creates an environment.
    public init(
        scheduler: any TimerScheduling, requests: any RequestRunning = NoRequests(),
        journal: (any SessionJournal)? = nil, historyInputs: Int = 0,
        onStorageFailure: (@Sendable (SessionID) -> Void)? = nil
    ) {
        self.scheduler = scheduler
        self.requests = requests
        self.journal = journal
        self.historyInputs = max(0, historyInputs)
        self.onStorageFailure = onStorageFailure
    }
}
