import ViewModelCore

/// Thrown (like ``SessionLoadNeeded``) when the session a request names is owned by another live node:
/// ``MeteredRouter`` forwards the request there through the ``ClusterHop`` and relays the answer. When the owner
/// cannot be reached, ``takeOver`` loads the session here instead; when it no longer owns the session,
/// ``lookUpAgain`` finds where it is now.
struct SessionElsewhere: Error {
    /// The session.
    let id: SessionID
    /// The owner.
    let owner: PeerNode
    /// Loads the session here, taking it over from ``owner`` (which refused the connection: it is gone), unless
    /// another live node has taken it meanwhile; then the request goes there.
    let takeOver: SessionLoadNeeded
    /// Looks the owner up again in the store (the route was stale).
    let lookUpAgain: SessionLoadNeeded
}
