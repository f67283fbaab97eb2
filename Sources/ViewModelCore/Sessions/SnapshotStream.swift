import Synchronization
import ViewHostLocking

/// Wakes whoever waits for a session's changes: long polls waiting for a feature's next version, and observers
/// (event streams) that hear of every change. The session hands it each change after applying it; it never sees
/// the session's state.
public final class SnapshotStream: Sendable {
    private struct Waiter {
        let id: Int
        let feature: String
        let afterVersion: Int
        let continuation: CheckedContinuation<Int?, Never>
    }

    private struct Observer {
        let id: Int
        let call: @Sendable (SessionChange) -> Void
    }

    private struct State {
        var waiters: [Waiter] = []
        /// In the order they came: an array, so a change hands them on by sharing its storage (a retain), not by
        /// copying them out of a dictionary into a new array for every change.
        var observers: [Observer] = []
        var nextID = 0
        var end: SessionEnd?
    }

    /// The state, in an object of its own made by the first waiter, observer or end: most sessions are never
    /// watched, and an idle one then holds no lock for it (88 B). A change published before it is made has nobody
    /// to tell; a waiter reads the version after it is in place, so it misses nothing.
    private final class Shared: Sendable {
        let state = Locked(State())
    }

    private let made = AtomicLazyReference<Shared>()

    /// The state, made now if it was not.
    private var state: Locked<State> { (made.load() ?? made.storeIfNil(Shared())).state }

    /// The state if anything made it.
    private var stateIfMade: Locked<State>? { made.load()?.state }

    /// Creates a stream with no waiters.
    public init() {}

    /// Calls `observer` after every change, outside any lock, on the thread that applied it; the last call carries
    /// the session's end.
    /// - Returns: A token for ``removeObserver(_:)``, or nil when the session has ended already.
    public func addObserver(_ observer: @escaping @Sendable (SessionChange) -> Void) -> Int? {
        state.withLock { state in
            guard state.end == nil else { return nil }
            state.nextID += 1
            state.observers.append(Observer(id: state.nextID, call: observer))
            return state.nextID
        }
    }

    /// Stops calling an observer.
    public func removeObserver(_ id: Int) {
        stateIfMade?.withLock { $0.observers.removeAll { $0.id == id } }
    }

    /// Why the session ended, once it has.
    public var end: SessionEnd? { stateIfMade?.withLock { $0.end } }

    /// The number of observers (open event streams).
    public var observerCount: Int { stateIfMade?.withLock { $0.observers.count } ?? 0 }

    /// Wakes the waiters of the features that changed and tells every observer.
    func publish(_ change: SessionChange) {
        guard let state = stateIfMade else { return }
        let (woken, observers) = state.withLock { state -> ([(CheckedContinuation<Int?, Never>, Int)], [Observer]) in
            // Most changes have no long poll waiting: then nothing is allocated here.
            guard !state.waiters.isEmpty else { return ([], state.observers) }
            var woken: [(CheckedContinuation<Int?, Never>, Int)] = []
            state.waiters.removeAll { waiter in
                guard let version = change.versions[waiter.feature], version > waiter.afterVersion else { return false }
                woken.append((waiter.continuation, version))
                return true
            }
            return (woken, state.observers)
        }
        for (continuation, version) in woken { continuation.resume(returning: version) }
        for observer in observers { observer.call(change) }
    }

    /// Waits until `feature` has a version newer than `version`, or `timeout` passes.
    /// - Parameters:
    ///   - feature: The feature watched.
    ///   - version: The version the caller has.
    ///   - timeout: The longest wait.
    ///   - current: Reads the feature's version now (nil: no such feature), once the waiter is in place, so a change
    ///     between the caller's read and the wait is not missed.
    /// - Returns: The newer version, or nil on timeout, cancellation or the session's end.
    func wait(
        for feature: String, after version: Int, timeout: Duration, current: @escaping @Sendable () -> Int?
    ) async -> Int? {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskGroup(of: Int?.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
                        let registered = self.state.withLock { state -> Bool in
                            guard state.end == nil else { return false }
                            state.waiters.append(
                                Waiter(id: id, feature: feature, afterVersion: version, continuation: continuation))
                            return true
                        }
                        guard registered else { return continuation.resume(returning: nil) }
                        if let now = current(), now > version { self.resume(id, with: now) }
                        if current() == nil { self.resume(id, with: nil) }
                    }
                } onCancel: {
                    self.resume(id, with: nil)
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Ends the stream: waiters get nil, observers hear the end once, and nothing is added later.
    /// - Returns: False when it had ended already.
    @discardableResult
    func close(_ end: SessionEnd, sequence: Int) -> Bool {
        let closing = state.withLock { state -> ([Waiter], [Observer])? in
            guard state.end == nil else { return nil }
            state.end = end
            defer {
                state.waiters.removeAll()
                state.observers.removeAll()
            }
            return (state.waiters, state.observers)
        }
        guard let (waiters, observers) = closing else { return false }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
        let change = SessionChange(sequence: sequence, versions: [:], end: end)
        for observer in observers { observer.call(change) }
        return true
    }

    private func resume(_ id: Int, with version: Int?) {
        let continuation = stateIfMade?.withLock { state -> CheckedContinuation<Int?, Never>? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        continuation?.resume(returning: version)
    }
}
