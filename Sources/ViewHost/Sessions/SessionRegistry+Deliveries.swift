import Foundation
import Logging
import ViewModelCore

/// Where a delivery's receiving session is, found without a token (the library's own work, which counts as no use
/// of the session): in memory here, loaded from the durable store, with another live node, or ended.
enum DeliveryTarget: Sendable {
    /// In memory here.
    case here(Session)
    /// Deleted, expired, or never there: the delivery cannot arrive.
    case ended
    /// Another live node owns it.
    case elsewhere(PeerNode)
    /// It cannot be reached now (the store does not answer): try again later.
    case unavailable(String)
}

extension SessionRegistry {
    /// Delivers `delivery` (`count` events) to session `id` wherever it is, following loads and hops as a request's
    /// session is followed (``SessionResolver``), at most ``SessionResolver/maxSteps`` of them.
    func deliver(_ delivery: IncomingDelivery, count: Int, to id: SessionID) async -> SessionCourier.Outcome {
        var target = await deliveryTarget(id)
        for _ in 0..<SessionResolver.maxSteps {
            switch target {
            case .here(let receiver):
                return await courier.apply(delivery, count: count, to: receiver)
            case .ended:
                return .failed(.ended)
            case .unavailable(let reason):
                return .retry(reason)
            case .elsewhere(let owner):
                guard let cluster else { return .retry("session \(id) is another node's (\(owner))") }
                switch await cluster.deliver(delivery, count: count, to: id, at: owner) {
                case .answered(let outcome): return outcome
                case .unreachable: target = await deliveryTarget(id, replacing: owner)
                case .misdirected: target = await deliveryTarget(id)
                }
            }
        }
        return .retry("session \(id) kept moving between nodes")
    }

    /// Where session `id` is for a delivery: in memory, else loaded (off the event loops) and kept in memory here.
    /// - Parameters:
    ///   - id: The receiving session.
    ///   - replacing: A node that owns the session but could not be reached: the session is taken over from it.
    ///   - hop: Whether the delivery came from another node: a session a third node owns is left there (`elsewhere`,
    ///     answered 421), never forwarded again.
    /// - Returns: The session here, the node that owns it, or why it cannot be reached.
    func deliveryTarget(_ id: SessionID, replacing: PeerNode? = nil, hop: Bool = false) async -> DeliveryTarget {
        if let live = store.session(id) { return .here(live) }
        // The memory store keeps nothing beyond the process: a session not in memory ended.
        guard storage != nil, id.rawValue.utf8.count <= 64 else { return .ended }
        return await withCheckedContinuation { (continuation: CheckedContinuation<DeliveryTarget, Never>) in
            Self.loading.async {
                continuation.resume(returning: self.loadForDelivery(id, replacing: replacing, hop: hop))
            }
        }
    }

    private func loadForDelivery(_ id: SessionID, replacing: PeerNode?, hop: Bool) -> DeliveryTarget {
        guard let storage else { return .ended }
        let now = scheduler.now
        let lookup: StoredLookup
        do {
            if let shared {
                switch try claim(id, from: shared, replacing: replacing, hop: hop) {
                case .loaded(let found):
                    lookup = found
                case .ownedElsewhere(let owner):
                    cluster?.routes.remember(id, owner: owner)
                    return .elsewhere(owner)
                }
            } else {
                lookup = try storage.load(id)
            }
        } catch {
            logger.warning(
                "a delivery's receiving session cannot be loaded",
                metadata: ["session-id": "\(id)", "reason": "\(error)"])
            return .unavailable("\(error)")
        }
        switch lookup {
        case .none, .expired, .lost:
            return .ended
        case .found(let stored):
            guard stored.lastAccess.addingTimeInterval(settings.store.idleTTL.seconds) > now else {
                storage.remove(id, expiredAt: now) { _ in }
                store.rememberExpired(id, token: stored.token, at: now)
                return .ended
            }
            return .here(adopt(stored))
        }
    }
}
