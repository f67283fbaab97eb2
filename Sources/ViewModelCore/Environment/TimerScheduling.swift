import Foundation

/// Runs actions after delays of simulated time, and tells the wall-clock time.
///
/// Contract: `schedule` never runs the action synchronously inside the call; an action runs at most once, and
/// never after its timer was cancelled (a cancel that races with the firing may lose, so actions must tolerate
/// running for state that moved on). Implementations: ``LiveTimerScheduler`` (real time, divided by the
/// a session's simulated delays are divided by its simulation speed first) and the test scheduler that moves time
/// only when told to.
public protocol TimerScheduling: Sendable {
    /// The current wall-clock time.
    var now: Date { get }

    /// Runs `action` once, after `delay`.
    /// - Returns: A handle that cancels it.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer
}

/// A handle on one scheduled action.
public struct ScheduledTimer: Sendable {
    private let onCancel: @Sendable () -> Void

    /// Creates a handle that calls `cancel` to cancel.
    public init(cancel: @escaping @Sendable () -> Void) {
        self.onCancel = cancel
    }

    /// Cancels the action if it has not run yet.
    public func cancel() {
        onCancel()
    }
}
