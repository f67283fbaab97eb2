import ViewHostLocking
import ViewModelCore

/// Where an owner's sessions are asked for: when every one of a session's last ``handOffAfter`` requests came
/// forwarded from one other node (a balancer that hashes sessions to that node, which did not create it), the
/// owner hands the session to that node, so its requests stop paying the hop. A request that reaches the owner
/// directly, or from another node, starts the count again: behind round robin a session stays where it is.
/// Bounded: past ``capacity`` sessions it starts over.
final class SessionAffinity: Sendable {
    /// How many requests in a row, all forwarded by one node, move a session there.
    static let handOffAfter = 16
    /// The most sessions counted.
    let capacity: Int
    private let runs = Locked<[SessionID: Run]>([:])

    private struct Run {
        var node: String
        var count: Int
    }

    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// Counts a request for session `id`, forwarded by node `forwarder` (nil: it came to this node directly).
    func note(_ id: SessionID, forwardedBy forwarder: String?) {
        runs.withLock { runs in
            guard let forwarder else {
                if runs[id] != nil { runs[id] = nil }
                return
            }
            if runs[id]?.node == forwarder {
                runs[id]?.count += 1
            } else {
                if runs.count >= capacity { runs.removeAll(keepingCapacity: true) }
                runs[id] = Run(node: forwarder, count: 1)
            }
        }
    }

    /// Whether session `id` goes to `node` now: its last ``handOffAfter`` requests all came from it. Once said, the
    /// count starts again.
    func handsOff(_ id: SessionID, to node: String) -> Bool {
        runs.withLock { runs in
            guard let run = runs[id], run.node == node, run.count >= Self.handOffAfter else { return false }
            runs[id] = nil
            return true
        }
    }
}
