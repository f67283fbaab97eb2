import ViewModelCore

/// A session another live node owns: the request goes there through the ``ClusterHop`` and its answer is relayed.
/// When the owner cannot be reached, ``takeOver`` loads the session here instead; when it no longer owns the
/// session, ``lookUpAgain`` finds where it is now.
struct SessionElsewhere: Sendable {
    /// The session.
    let id: SessionID
    /// The owner.
    let owner: PeerNode
    /// Loads the session here, taking it over from ``owner`` (which refused the connection: it is gone), unless
    /// another live node has taken it meanwhile; then the request goes there.
    let takeOver: SessionLoad
    /// Looks the owner up again in the store (the route was stale).
    let lookUpAgain: SessionLoad
}
