import ViewHostLocking

/// A node's way out of the cluster in a graceful stop (a rolling restart), so that it fails no request on the way:
/// while its public listener drains, it goes on answering hops for the sessions it owns; then it ``leave()``s:
/// from then on each new hop is answered `421` with ``ClusterHop/handOffField`` (the forwarding node takes the
/// session over at once, without waiting for this node's lease to end), once the hops that may write, already
/// taken, have answered (``writesFinished()``); then this node writes what it has queued and ends its lease.
///
/// Only writes are waited for: a read, a stream or a long poll changes nothing a taker could overwrite, and the
/// registry's close ends those still open.
final class HopDeparture: Sendable {
    private let state = Locked(State())

    private struct State {
        var leaving = false
        var writes = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Until when the writing hops taken before ``leave(within:)`` are waited for.
        var deadline: ContinuousClock.Instant?
    }

    /// Counts a hop taken now, when it may write; returns false (take nothing) once the node is leaving.
    func enter(writing: Bool) -> Bool {
        state.withLock { state in
            guard !state.leaving else { return false }
            if writing { state.writes += 1 }
            return true
        }
    }

    /// A writing hop counted by ``enter(writing:)`` has its answer.
    func exit() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.writes -= 1
            guard state.writes == 0, state.leaving else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// From now on every new hop is handed back (see the type's summary); the writing hops taken before get
    /// `timeout` from now to answer.
    func leave(within timeout: Duration) {
        state.withLock { state in
            state.leaving = true
            state.deadline = .now.advanced(by: timeout)
        }
    }

    /// Whether the node is leaving.
    var isLeaving: Bool { state.withLock { $0.leaving } }

    /// How many writing hops have not answered yet.
    var writesUnderWay: Int { state.withLock { $0.writes } }

    /// Returns once the writing hops taken before ``leave(within:)`` have their answers, or its timeout has passed.
    /// A hop is handed back only then: the node that takes its session over raises the session's epoch, which
    /// refuses a write of this node's that is still on its way to the store (its client would get `503`).
    func writesFinished() async {
        let deadline = state.withLock { $0.deadline } ?? .now
        await writesFinished(within: max(ContinuousClock.now.duration(to: deadline), .zero))
    }

    /// Returns once the writing hops taken before ``leave(within:)`` have their answers, or `timeout` has passed.
    private func writesFinished(within timeout: Duration) async {
        let bound = Task {
            try await Task.sleep(for: timeout)
            stopWaiting()
        }
        await allWritesAnswered()
        bound.cancel()
    }

    /// Lets every waiter of ``writesFinished()`` go on now.
    private func stopWaiting() {
        let waiters = state.withLock { state in
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the writing hops taken before ``leave(within:)`` have their answers.
    private func allWritesAnswered() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.writes == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
