/// What a session's shell gets from outside: the scheduler that tells the time and runs its timers, and the
/// runner of its features' outside work (provider calls).
public struct SessionEnvironment: Sendable {
    /// Runs timers; tells the wall-clock time.
    public var scheduler: any TimerScheduling
    /// Runs the features' requests and answers with their events.
    public var requests: any RequestRunning

    /// Creates an environment.
    public init(scheduler: any TimerScheduling, requests: any RequestRunning = NoRequests()) {
        self.scheduler = scheduler
        self.requests = requests
    }
}
