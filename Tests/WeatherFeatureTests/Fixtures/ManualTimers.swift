import ViewHostLocking

/// Timers that fire only when a test says so: ``sleep(_:)`` stands in for `Task.sleep` and suspends until
/// ``fireAll()`` (or until its task is cancelled), so a timeout is tested by what happened, not by a bound.
final class ManualTimers: Sendable {
    private struct State {
        var nextID = 0
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    /// How many sleeps are waiting to fire.
    var pending: Int { state.withLock { $0.waiting.count } }

    /// Suspends until ``fireAll()`` or until the calling task is cancelled.
    @Sendable func sleep(_ duration: Duration) async {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let cancelled = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if cancelled { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }

    /// Fires every sleep waiting now.
    func fireAll() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }
}
