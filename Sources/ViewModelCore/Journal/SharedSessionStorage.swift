/// A store several nodes share (PostgreSQL): besides ``SessionStorage``, it knows which node owns each session and
/// whether that node is alive, so a node can route a request to the owner instead of taking the session over.
///
/// A node is alive while its lease holds: it renews it by heartbeat (``announce(_:)`` starts that) and gives it up
/// when it closes. A session whose owner is alive stays with its owner; one whose owner is dead (or that nobody
/// owns) is taken over by the node that loads it.
public protocol SharedSessionStorage: SessionStorage {
    /// Like ``SessionStorage/load(_:)``, except that a session another live node owns is left with it:
    /// ``SessionClaim/ownedElsewhere(_:)`` names that node, and nothing changes.
    /// - Throws: ``StorageError`` as ``SessionStorage/load(_:)`` does.
    func claim(_ id: SessionID) throws(StorageError) -> SessionClaim

    /// Like ``claim(_:)``, except that a session `replaced` owns (by name) is taken over too, though its lease
    /// holds: it handed the session to this node, or refused a connection. Whether it still owns the session is
    /// checked in the transaction that takes it over, so of several nodes replacing the same owner at once exactly
    /// one takes the session, and each of the others is named that node (``SessionClaim/ownedElsewhere(_:)``)
    /// instead of taking it over a second time (which would fence the first copy and refuse its pending writes).
    /// - Throws: ``StorageError`` as ``SessionStorage/load(_:)`` does.
    func claim(_ id: SessionID, replacing replaced: PeerNode?) throws(StorageError) -> SessionClaim

    /// Starts this node's lease: it is announced with `internalAddress` (where other nodes send it requests for the
    /// sessions it owns) and renewed by heartbeat until ``SessionStorage/close()``.
    func announce(_ internalAddress: String)

    /// The sessions with pending timers whose owner is dead (its lease expired) or that nobody owns: a live node
    /// claims them so their timers fire without a request.
    func sessionsWithOrphanedTimers() throws(StorageError) -> [SessionID]

    /// How many sessions this node took over from another node since it started.
    var takeovers: Int { get }
}

/// What ``SharedSessionStorage/claim(_:)`` found.
public enum SessionClaim: Sendable {
    /// The session is this node's now (or it expired, or there is none), as ``SessionStorage/load(_:)`` says.
    case loaded(StoredLookup)
    /// Another live node owns the session.
    case ownedElsewhere(PeerNode)
}

/// Another node of the cluster, as its lease announces it.
public struct PeerNode: Sendable, Hashable, CustomStringConvertible {
    /// Its name (`--node-id`).
    public let name: String
    /// Where it takes requests from other nodes, `HOST:PORT`.
    public let address: String

    /// Creates a peer.
    public init(name: String, address: String) {
        self.name = name
        self.address = address
    }

    /// The node's name and address, as a log line names the owner.
    public var description: String { "\(name) at \(address)" }
}
