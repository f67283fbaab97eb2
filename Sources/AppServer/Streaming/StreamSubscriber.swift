import Synchronization

/// One SSE stream's view of its session's changes: a set of features changed since the stream last wrote
/// them. However slow the reader, it holds at most one pending entry per feature (newer changes collapse into
/// it), so a stalled client can never grow server memory.
final class StreamSubscriber: Sendable {
    /// What the stream should do next.
    enum Signal: Sendable, Equatable {
        /// Write these features' newest snapshots.
        case changed(Set<String>)
        /// Nothing changed for a heartbeat interval: write a comment line.
        case heartbeat
        /// The stream was cancelled (client gone, server draining).
        case cancelled
    }

    private struct State {
        var dirty: Set<String> = []
        var waiter: CheckedContinuation<Set<String>?, Never>?
    }

    /// The features this stream carries.
    let features: Set<String>
    private let state = Mutex(State())

    init(features: Set<String>) {
        self.features = features
    }

    /// Notes that `changed` features have newer snapshots (called from the session's observer).
    func markChanged(_ changed: some Sequence<String>) {
        let waiter = state.withLock { state -> CheckedContinuation<Set<String>?, Never>? in
            for feature in changed where features.contains(feature) { state.dirty.insert(feature) }
            guard !state.dirty.isEmpty, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: takeDirty())
    }

    /// Waits for changes, at most `heartbeat`.
    func next(heartbeat: Duration) async -> Signal {
        await withTaskGroup(of: Signal.self) { group in
            group.addTask {
                guard let changed = await self.waitForChanges() else { return .cancelled }
                return .changed(changed)
            }
            group.addTask {
                do {
                    try await Task.sleep(for: heartbeat)
                    return .heartbeat
                } catch {
                    return .cancelled
                }
            }
            let first = await group.next() ?? .cancelled
            group.cancelAll()
            // A change that raced with the heartbeat: `markChanged` may already have taken the waiter and the
            // dirty set, so the losing child returns `.changed` and the group would drop it (the stream then
            // missed that change until the next one). Put it back for the next round.
            while let other = await group.next() {
                if case .changed(let lost) = other { markDirty(lost) }
            }
            return first
        }
    }

    /// Marks `changed` dirty again without waking anyone (the caller loops back into ``next(heartbeat:)``).
    private func markDirty(_ changed: Set<String>) {
        state.withLock { state in state.dirty.formUnion(changed) }
    }

    private func takeDirty() -> Set<String> {
        state.withLock { state in
            defer { state.dirty.removeAll() }
            return state.dirty
        }
    }

    private func waitForChanges() async -> Set<String>? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Set<String>?, Never>) in
                let immediate = state.withLock { state -> Set<String>?? in
                    // Checked under the lock `onCancel` takes: a cancel that came first (even before this task
                    // started, when `onCancel` runs at once and finds no waiter) must not leave a waiter that
                    // nobody resumes. That hung the stream until the session's next change: its place was never
                    // given back, and a draining server had to cut it. (The old `cancelled` flag was never set.)
                    if Task.isCancelled { return .some(nil) }
                    if !state.dirty.isEmpty {
                        defer { state.dirty.removeAll() }
                        return .some(state.dirty)
                    }
                    state.waiter = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Set<String>?, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
