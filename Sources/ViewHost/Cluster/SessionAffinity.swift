import ViewHostLocking
import ViewModelCore

/// Where an owner's sessions are asked for: when every one of a session's last ``handOffAfter`` requests came
/// forwarded from one other node (a balancer that hashes sessions to that node, which did not create it), the
/// owner hands the session to that node, so its requests stop paying the hop. A request that reaches the owner
/// directly, or from another node, starts the count again: behind round robin a session stays where it is (64 in a
/// row from one of two others comes by chance about once in 10^19), and a session that just moved here stays for
/// ``settleTime`` whatever comes, so two nodes that both send it requests never toss it back and forth.
/// Bounded: past ``capacity`` sessions it starts over.
final class SessionAffinity: Sendable {
    /// How many requests in a row, all forwarded by one node, move a session there.
    static let handOffAfter = 64
    /// How long a session handed to this node stays, whoever asks for it.
    static let settleTime: Duration = .seconds(30)
    /// The most sessions counted.
    let capacity: Int
    private let state = Locked(State())

    private struct State {
        var runs: [SessionID: Run] = [:]
        /// Sessions handed here lately, and when they may move again.
        var settled: [SessionID: ContinuousClock.Instant] = [:]
    }

    private struct Run {
        var node: String
        var count: Int
    }

    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// Counts a request for session `id`, forwarded by node `forwarder` (nil: it came to this node directly).
    func note(_ id: SessionID, forwardedBy forwarder: String?) {
        state.withLock { state in
            guard let forwarder else {
                if state.runs[id] != nil { state.runs[id] = nil }
                return
            }
            if state.runs[id]?.node == forwarder {
                state.runs[id]?.count += 1
            } else {
                if state.runs.count >= capacity { state.runs.removeAll(keepingCapacity: true) }
                state.runs[id] = Run(node: forwarder, count: 1)
            }
        }
    }

    /// Notes that session `id` was handed to this node just now: it stays for ``settleTime``.
    func settle(_ id: SessionID) {
        state.withLock { state in
            if state.settled.count >= capacity { state.settled.removeAll(keepingCapacity: true) }
            state.settled[id] = .now.advanced(by: Self.settleTime)
        }
    }

    /// Whether session `id` goes to `node` now: its last ``handOffAfter`` requests all came from it. Once said, the
    /// count starts again.
    func handsOff(_ id: SessionID, to node: String) -> Bool {
        state.withLock { state in
            guard let run = state.runs[id], run.node == node, run.count >= Self.handOffAfter else { return false }
            state.runs[id] = nil
            if let until = state.settled[id] {
                guard until <= .now else { return false }
                state.settled[id] = nil
            }
            return true
        }
    }
}
