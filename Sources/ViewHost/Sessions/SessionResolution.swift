import Foundation
import ViewModelCore

/// Where a request's session is, found before its handler runs (``SessionRegistry/resolve(_:id:)``): in memory
/// here, in the durable store (load it first, off the event loop), or with another live node (send the request
/// there). ``SessionResolver`` follows it to the session, and only then runs the handler, once.
enum SessionResolution: Sendable {
    /// In memory: handle the request with it.
    case here(Session)
    /// In the durable store, not in memory: load it, then see again where it is.
    case load(SessionLoad)
    /// Owned by another live node: send the request there and relay the answer.
    case elsewhere(SessionElsewhere)
}

/// A load of a request's session from the durable store: which session, for which token, in which mode.
struct SessionLoad: Sendable {
    /// The session.
    let id: SessionID
    /// The token the request carries (checked against the stored digest).
    let token: String
    /// When the request asked (an idle session past its time expires instead).
    let now: Date
    /// Taken over, or left with another live node that owns it.
    let mode: SessionRegistry.LoadMode
    /// Whether the request was let in already (a participant's token, checked against the store's participants):
    /// then the session's own token is not asked for.
    var authorized = false
    /// Runs on the loaded copy before it is adopted, so before any other request can reach it (a reader whose copy
    /// was dropped reads the durable value there).
    var prepare: (@Sendable (Session) -> Void)? = nil
}
