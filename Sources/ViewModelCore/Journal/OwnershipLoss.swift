/// What a shared store tells a node it no longer owns (several nodes on one store: only the owner of a session
/// applies its inputs, and another node may take the session over). The node drops its copy; the next request
/// loads the newest durable value again.
public enum OwnershipLoss: Sendable, Equatable {
    /// Another node took this session over.
    case session(SessionID)
    /// The node cannot hear about takeovers any more (its connection to the store broke): every copy it holds
    /// may be stale.
    case all
}
