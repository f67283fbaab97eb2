/// What a session has in flight to its journal: inputs applied and not durable yet, what waits for them, and what
/// readers need meanwhile. In a box of its own, made when the first input goes to the journal and given back once
/// nothing is in flight: a session without a journal never has one, and an idle session with one has none, so the
/// shell carries one word for these seven fields. Only touched under the session's lock (it lives in the shell).
final class SessionInFlight: @unchecked Sendable {
    /// The version readers may see of each feature that has changes not yet durable (its newest durable one). Empty
    /// whenever everything applied is durable: then readers see the core's versions.
    var uncommitted: [String: Int] = [:]
    /// Inputs applied and not yet durable, with what waits for each, in number order.
    var pending: [Session.PendingCommit] = []
    /// Readers waiting for a feature's newest durable version to become readable (see
    /// ``Session/waitForRepresentation(of:make:)``), by feature.
    var readersWaiting: [String: Int] = [:]
    /// Versions of the features readers wait for, kept while newer inputs are applied, so the one that becomes
    /// durable can still be built; oldest first.
    var kept: [String: [KeptVersion]] = [:]
    /// Idempotency keys whose request is applied but not durable yet (a retry gets `409`).
    var keysInFlight: Set<String> = []
    /// Journal entries numbered under the lock and not yet handed to the journal, in number order, and whether a
    /// thread is handing them over (see ``Session/complete(_:)``); each is made (its input encoded) outside the lock.
    var handoff: [Session.UnmadeEntry] = []
    var handingOff = false

    /// Whether nothing is in flight, so the box can go.
    var isEmpty: Bool {
        uncommitted.isEmpty && pending.isEmpty && readersWaiting.isEmpty && kept.isEmpty && keysInFlight.isEmpty
            && handoff.isEmpty && !handingOff
    }
}

/// The shell's view of its ``SessionInFlight``: each field reads as empty while there is no box, and a change makes
/// the box first (changing the box's field in place, never a copy of it).
extension Session.Shell {
    var uncommitted: [String: Int] {
        get { inFlight?.uncommitted ?? [:] }
        _modify { yield &inFlightMade().uncommitted }
    }
    var pending: [Session.PendingCommit] {
        get { inFlight?.pending ?? [] }
        _modify { yield &inFlightMade().pending }
    }
    var readersWaiting: [String: Int] {
        get { inFlight?.readersWaiting ?? [:] }
        _modify { yield &inFlightMade().readersWaiting }
    }
    var kept: [String: [KeptVersion]] {
        get { inFlight?.kept ?? [:] }
        _modify { yield &inFlightMade().kept }
    }
    var keysInFlight: Set<String> {
        get { inFlight?.keysInFlight ?? [] }
        _modify { yield &inFlightMade().keysInFlight }
    }
    var handoff: [Session.UnmadeEntry] {
        get { inFlight?.handoff ?? [] }
        _modify { yield &inFlightMade().handoff }
    }
    var handingOff: Bool {
        get { inFlight?.handingOff ?? false }
        _modify { yield &inFlightMade().handingOff }
    }

    /// The box, made now if there is none.
    mutating func inFlightMade() -> SessionInFlight {
        if let inFlight { return inFlight }
        let made = SessionInFlight()
        inFlight = made
        return made
    }

    /// Gives the box back once nothing is in flight (after a commit, and after a hand-off ends).
    mutating func releaseInFlightIfEmpty() {
        if inFlight?.isEmpty == true { inFlight = nil }
    }
}
