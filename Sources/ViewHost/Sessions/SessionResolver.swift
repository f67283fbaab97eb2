import HTTPCore
import Logging
import ViewModelCore

/// Runs the handler of a session's route once, with its session: at once when the session is in memory; after
/// loading it from the durable store (off the event loop) when it is not; not at all when another live node owns
/// it, and the request goes there, its answer relayed. A load may find another owner, and a hop a gone or
/// mistaken owner (then the session is taken over here, or looked up again): steps follow each other as the store
/// and the nodes answer, at most ``maxSteps``, then `503`. Nothing here throws to say where a request goes: each
/// step is a ``SessionResolution``.
struct SessionResolver: Sendable {
    /// A session route's handler: the request, its context and its session.
    typealias Handler = @Sendable (HTTPRequest, HTTPRequestContext, Session) throws -> HTTPHandlerResult
    /// A session route's handler that also takes who asks: nil for the owner (the session's own token), else the
    /// participant whose token the request carries.
    typealias ViewerHandler =
        @Sendable (HTTPRequest, HTTPRequestContext, Session, Participant?) throws -> HTTPHandlerResult

    /// What a member (a participant that is not the owner) may do with a route of a session.
    enum MemberAccess: Sendable {
        /// Nothing: the owner's alone (`403`).
        case refused
        /// The route's `:feature`, if it was invited to it (else `404`, as a feature the session does not have).
        case invitedFeature
        /// The route, whose handler sees to what the member may see.
        case allowed
    }

    /// Where sessions are found and loaded.
    let registry: SessionRegistry

    /// The most loads and hops one request takes before it is answered `503`: a load repeats only when the store
    /// or the nodes moved meanwhile, so more means they still fail.
    static let maxSteps = 6

    /// Resolves the session `:id` names, then answers with `handler`, run once.
    /// - Throws: What resolving throws (`401`, `404`, `410`), and what `handler` throws when it runs at once.
    func respond(
        to request: HTTPRequest, context: HTTPRequestContext, members: MemberAccess = .refused,
        with handler: @escaping ViewerHandler
    ) throws -> HTTPHandlerResult {
        let id = context.parameters["id"] ?? ""
        if let token = SessionRegistry.token(of: request, session: id),
            let (participant, secret) = Participant.parseToken(token)
        {
            return try respond(
                to: request, context: context, participant: participant, secret: secret, members: members,
                with: handler)
        }
        let resolution = try registry.resolve(request, id: id)
        if case .here(let session) = resolution {
            // A session that stopped because a value of it cannot be stored answers every request so.
            if session.isClosed, let value = session.unstorableValue { throw AppError.unstorable(value) }
            return try handler(request, context, session, nil)
        }
        return .deferred {
            try await reach(resolution, for: request, context: context) { session in
                try await handler(request, context, session, nil).response()
            }
        }
    }

    /// Answers a request that carries a participant's token: `401` once it was removed, `404` for a token no
    /// participant of the session has (as any wrong token), then as `members` lets a member in.
    private func respond(
        to request: HTTPRequest, context: HTTPRequestContext, participant: String, secret: String,
        members: MemberAccess, with handler: @escaping ViewerHandler
    ) throws -> HTTPHandlerResult {
        let id = SessionID(context.parameters["id"] ?? "")
        let roster = registry.participants
        let answer: @Sendable (ParticipantRoster.Verdict) throws -> HTTPHandlerResult = { verdict in
            let member = try Self.admit(verdict, to: context, members: members)
            let resolution = try registry.resolve(request, participantOf: id)
            if case .here(let session) = resolution {
                if session.isClosed, let value = session.unstorableValue { throw AppError.unstorable(value) }
                return try handler(request, context, session, member)
            }
            return .deferred {
                try await reach(resolution, for: request, context: context) { session in
                    // Loaded here just now (taken over from a node that died, say): what this node cached of its
                    // participants may be older than the session's move, so the store is asked again.
                    let current = try await Self.verdict(
                        of: participant, secret: secret, session: id, roster: roster, context: context)
                    let member = try Self.admit(current, to: context, members: members)
                    return try await handler(request, context, session, member).response()
                }
            }
        }
        if let verdict = roster.cachedVerdict(id: participant, secret: secret, session: id) {
            return try answer(verdict)
        }
        return .deferred {
            let verdict = try await Self.verdict(
                of: participant, secret: secret, session: id, roster: roster, context: context)
            return try await answer(verdict).response()
        }
    }

    /// The roster's verdict, read off the event loops (the store, unless cached); a store that does not answer is
    /// `503`, its cause logged.
    private static func verdict(
        of participant: String, secret: String, session: SessionID, roster: ParticipantRoster,
        context: HTTPRequestContext
    ) async throws -> ParticipantRoster.Verdict {
        do {
            return try await OffLoop.run { try roster.verdict(id: participant, secret: secret, session: session) }
        } catch {
            context.logger.error("the participants cannot be read", metadata: ["reason": "\(error)"])
            throw AppError.storageUnavailable
        }
    }

    /// The participant a verdict lets in, if `members` lets it use this route.
    /// - Throws: `401` for a removed participant, `404` for an unknown token or a feature it was not invited to,
    ///   `403` for a route that is the owner's alone.
    private static func admit(
        _ verdict: ParticipantRoster.Verdict, to context: HTTPRequestContext, members: MemberAccess
    ) throws -> Participant {
        switch verdict {
        case .unknown:
            throw AppError.sessionNotFound
        case .removed:
            throw HTTPError(
                .unauthorized,
                detail: "This participant was removed from the session: its token opens nothing any more.",
                headers: [.wwwAuthenticate: "Bearer realm=\"viewhost\", error=\"invalid_token\""])
        case .present(let participant):
            switch members {
            case .allowed:
                return participant
            case .invitedFeature:
                let feature = context.parameters["feature"] ?? ""
                guard participant.features.contains(feature) else {
                    throw AppError.featureNotFound(feature, available: participant.features)
                }
                return participant
            case .refused:
                throw HTTPError(
                    .forbidden,
                    detail: "Only the session's owner may do this; a participant reads, posts to and streams the "
                        + "features it was invited to, and lists or leaves the participants.")
            }
        }
    }

    /// Follows `resolution` until the session is here, then answers with `body` (run once); or relays the answer of
    /// the node that owns it.
    /// - Throws: `AppError.sessionUnavailable` after ``maxSteps``; what loads and `body` throw.
    func reach(
        _ resolution: SessionResolution, for request: HTTPRequest, context: HTTPRequestContext,
        then body: (Session) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        var step = resolution
        for _ in 0..<Self.maxSteps {
            switch step {
            case .here(let session):
                if session.isClosed, let value = session.unstorableValue { throw AppError.unstorable(value) }
                return try await body(session)
            case .load(let load):
                step = try await registry.load(load)
            case .elsewhere(let elsewhere):
                guard let hop = registry.cluster else { throw AppError.sessionUnavailable }
                switch try await hop.forward(request, for: elsewhere.id, context: context, to: elsewhere.owner) {
                case .answered(let response): return response
                case .unreachable, .handedOver: step = .load(elsewhere.takeOver)
                case .misdirected: step = .load(elsewhere.lookUpAgain)
                }
            }
        }
        throw AppError.sessionUnavailable
    }
}

extension MeteredRouter {
    /// Adds a route of one session's resources (its pattern's `:id` names the session): the session is resolved
    /// first (``SessionResolver``), then `handler` runs once with it.
    mutating func on(
        _ method: HTTPMethod, _ pattern: String, session resolver: SessionResolver,
        members: SessionResolver.MemberAccess = .refused, handler: @escaping SessionResolver.Handler
    ) {
        on(method, pattern) { request, context in
            try resolver.respond(to: request, context: context, members: members) { request, context, session, _ in
                try handler(request, context, session)
            }
        }
    }

    /// Adds a route of one session's resources whose handler also takes who asks (nil: the owner), letting members
    /// in as `members` says.
    mutating func on(
        _ method: HTTPMethod, _ pattern: String, session resolver: SessionResolver,
        members: SessionResolver.MemberAccess, viewer handler: @escaping SessionResolver.ViewerHandler
    ) {
        on(method, pattern) { request, context in
            try resolver.respond(to: request, context: context, members: members, with: handler)
        }
    }

    /// Adds a `GET` route of one session's resources answered at once, with its session resolved first.
    mutating func get(
        _ pattern: String, session resolver: SessionResolver,
        handler: @escaping @Sendable (HTTPRequest, HTTPRequestContext, Session) throws -> HTTPResponse
    ) {
        on(.get, pattern, session: resolver) { request, context, session in
            .response(try handler(request, context, session))
        }
    }
}
