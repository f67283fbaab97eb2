/// Why a session did not apply events.
public enum SessionError: Error, Equatable, Sendable {
    /// The session has ended (no longer thrown: ``ended(_:)`` says why).
    @available(*, deprecated, renamed: "ended", message: "thrown as ended(_:), which says why the session ended")
    case closed
    /// The session has ended, for this reason: deleted or expired, the server stops, or (`unavailable`) this copy
    /// was dropped while the store keeps the session, so loading it again goes on where it left off.
    case ended(SessionEnd)
    /// The session has no such feature.
    case noSuchFeature(String)
    /// The state cannot apply the event at `index`; nothing was applied.
    case refused(EventRefusal, index: Int)
    /// The idempotency key came before with a different request.
    case keyReused
    /// The idempotency key's first request is still being applied (not durable yet).
    case keyInFlight
    /// The store could not keep what was applied; it is not acknowledged, and the session reloads from the store.
    case unavailable
    /// A value cannot be stored: the request's events (nothing was applied), or a state or internal event of the
    /// session (it stopped: ``SessionEnd/unstorable``).
    case unstorable(UnstorableValue)
    /// The session has `limit` deliveries to contacts waiting for their receivers, or the request's events would
    /// leave more than that: nothing was applied; retry once they arrive.
    case deliveriesWaiting(limit: Int)
}
