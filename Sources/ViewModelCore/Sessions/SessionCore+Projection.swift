import Foundation

/// A session's value as one of its shared session's members may take it away (its export): only the features it was
/// invited to, and nothing of the rest of the session.
extension SessionCore {
    /// This value with only the features named in `features` (in the session's order): their states, versions,
    /// timers and requests; the log's entries of those features alone; no idempotency key (each is a request's,
    /// of any feature and any participant) and no delivery or contact's numbers (what an imported copy drops
    /// anyway). The counters (sequence, random state, next timer number) stay, so every number the kept features
    /// hold still means what it meant, and the value is one a live session could hold: an import takes it.
    public func projected(onto features: Set<String>) -> SessionCore {
        SessionCore(projecting: droppingDeliveries(), onto: features)
    }

    private init(projecting core: SessionCore, onto features: Set<String>) {
        sharedSettings = core.sharedSettings
        slots = core.slots.filter { features.contains($0.name) }
        featureNames = slots.map(\.name)
        counters = core.counters
        log = core.log.keeping(featureNames)
        idempotency = IdempotencyLedger()
    }
}
