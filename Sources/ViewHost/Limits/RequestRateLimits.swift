import HTTPCore

/// The per-client and per-session rates (`limits.sessionsPerMinutePerClient`, `limits.eventsPerSecondPerSession`):
/// a token bucket per key whose burst is one period's allowance, in bounded memory (``KeyedRateLimiter``). Over a
/// rate, the request is answered `429` with `Retry-After` and changes nothing.
final class RequestRateLimits<C: Clock>: Sendable where C.Duration == Duration {
    private let sessions: KeyedRateLimiter<String, C>?
    private let events: KeyedRateLimiter<String, C>?
    /// Events per participant of a shared session (`limits.eventsPerSecondPerParticipant`), by session and
    /// participant; the session's own bucket bounds them all together.
    private let participantEvents: KeyedRateLimiter<String, C>?
    /// Invitations made and redeemed, per client, at the rate of session creation (a bucket of its own).
    private let contacts: KeyedRateLimiter<String, C>?

    /// Creates the limits; a rate of 0 is no limit.
    init(_ rates: AppConfiguration.RateLimits, clock: C) {
        let perMinute = Double(rates.sessionsPerMinutePerClient)
        sessions =
            perMinute > 0 ? KeyedRateLimiter(capacity: perMinute, perSecond: perMinute / 60, clock: clock) : nil
        contacts =
            perMinute > 0 ? KeyedRateLimiter(capacity: perMinute, perSecond: perMinute / 60, clock: clock) : nil
        let perSecond = Double(rates.eventsPerSecondPerSession)
        events = perSecond > 0 ? KeyedRateLimiter(capacity: perSecond, perSecond: perSecond, clock: clock) : nil
        let perParticipant = Double(rates.eventsPerSecondPerParticipant)
        participantEvents =
            perParticipant > 0
            ? KeyedRateLimiter(capacity: perParticipant, perSecond: perParticipant, clock: clock) : nil
    }

    /// Counts one session creation against the client's address (the forwarded one behind a trusted proxy).
    /// - Throws: ``AppError/rateLimited(_:retryAfter:)`` when the client is over its rate.
    func admitSessionCreation(from address: IPAddress?) throws(AppError) {
        // Per address, port dropped, an IPv6 client by its /64: a client's connections share one allowance.
        guard let sessions, let wait = sessions.take(for: address?.clientKey ?? "unknown") else { return }
        throw .rateLimited("This client created too many sessions; retry later.", retryAfter: wait)
    }

    /// Counts one invitation made or redeemed against the client's address, at `limits.sessionsPerMinutePerClient`
    /// (codes are guessed by trying them: each try costs).
    /// - Throws: ``AppError/rateLimited(_:retryAfter:)`` when the client is over its rate.
    func admitContactRequest(from address: IPAddress?) throws(AppError) {
        guard let contacts, let wait = contacts.take(for: address?.clientKey ?? "unknown") else { return }
        throw .rateLimited(
            "This client made or redeemed too many invitations (limits.sessionsPerMinutePerClient); retry later.",
            retryAfter: wait)
    }

    /// Counts `count` events against the member that posts them (nil: the owner, bounded by the session's rate
    /// alone, as before sessions were shared), then against the session (a batch costs each of its events).
    /// - Throws: ``AppError/rateLimited(_:retryAfter:)`` when the member or the session is over its rate.
    func admitEvents(_ count: Int, session: String, member: String? = nil) throws(AppError) {
        if let member, let participantEvents,
            let wait = participantEvents.take(Double(count), for: session + "/" + member)
        {
            throw .rateLimited(
                "This participant posted too many events (limits.eventsPerSecondPerParticipant); retry later.",
                retryAfter: wait)
        }
        guard let events, let wait = events.take(Double(count), for: session) else { return }
        throw .rateLimited("This session posted too many events; retry later.", retryAfter: wait)
    }
}
