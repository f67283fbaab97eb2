import ViewHostLocking
import ViewModelCore

/// Which node owns each session, as last looked up in the store: a node forwards the next request for that session
/// there without asking the store again. Bounded: past ``capacity`` routes it starts over (a route is only a
/// shortcut; a missing one costs a lookup). Routes to a node that could not be reached are not followed for
/// ``unreachableFor`` (longer than a lease), so the sessions of a node that died are looked up again rather than
/// each waiting for a connect to fail.
final class RouteCache: Sendable {
    /// The most routes kept.
    let capacity: Int
    /// How long routes to a node that could not be reached are passed over.
    let unreachableFor: Duration
    private let state = Locked(State())

    private struct State {
        var routes: [SessionID: PeerNode] = [:]
        var unreachable: [PeerNode: ContinuousClock.Instant] = [:]
        /// Sessions their owner handed to this node: taken over with their next request.
        var handedOff: [SessionID: PeerNode] = [:]
    }

    init(capacity: Int = 100_000, unreachableFor: Duration = .seconds(10)) {
        self.capacity = capacity
        self.unreachableFor = unreachableFor
    }

    /// The node that owned session `id` when last looked up, unless it could not be reached lately.
    func owner(of id: SessionID) -> PeerNode? {
        state.withLock { state in
            guard let peer = state.routes[id] else { return nil }
            if let since = state.unreachable[peer] {
                guard since.duration(to: .now) > unreachableFor else { return nil }
                state.unreachable[peer] = nil
            }
            return peer
        }
    }

    /// Remembers that `peer` owns session `id` (the store says so: its lease holds).
    func remember(_ id: SessionID, owner peer: PeerNode) {
        state.withLock { state in
            if state.routes.count >= capacity { state.routes.removeAll(keepingCapacity: true) }
            state.routes[id] = peer
        }
    }

    /// Whether `peer` could not be reached lately.
    func isUnreachable(_ peer: PeerNode) -> Bool {
        state.withLock { state in state.unreachable[peer].map { $0.duration(to: .now) <= unreachableFor } ?? false }
    }

    /// Forgets session `id`'s route (this node holds it now, or it moved).
    func forget(_ id: SessionID) {
        state.withLock { state in
            state.routes[id] = nil
            state.handedOff[id] = nil
        }
    }

    /// Notes that `peer` handed session `id` to this node: its next request here takes it over.
    func handOff(_ id: SessionID, from peer: PeerNode) {
        state.withLock { state in
            state.routes[id] = nil
            if state.handedOff.count >= capacity { state.handedOff.removeAll(keepingCapacity: true) }
            state.handedOff[id] = peer
        }
    }

    /// The node that handed session `id` to this node, if one did since (once: the caller takes it over).
    func takeHandOff(_ id: SessionID) -> PeerNode? {
        state.withLock { $0.handedOff.removeValue(forKey: id) }
    }

    /// Notes that `peer` could not be reached: its routes are passed over for a while.
    func markUnreachable(_ peer: PeerNode) {
        state.withLock { $0.unreachable[peer] = .now }
    }
}
