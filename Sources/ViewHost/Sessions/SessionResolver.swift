import HTTPCore
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

    /// Where sessions are found and loaded.
    let registry: SessionRegistry

    /// The most loads and hops one request takes before it is answered `503`: a load repeats only when the store
    /// or the nodes moved meanwhile, so more means they still fail.
    static let maxSteps = 6

    /// Resolves the session `:id` names, then answers with `handler`, run once.
    /// - Throws: What resolving throws (`401`, `404`, `410`), and what `handler` throws when it runs at once.
    func respond(
        to request: HTTPRequest, context: HTTPRequestContext, with handler: @escaping Handler
    ) throws -> HTTPHandlerResult {
        let resolution = try registry.resolve(request, id: context.parameters["id"] ?? "")
        if case .here(let session) = resolution {
            // A session that stopped because a value of it cannot be stored answers every request so.
            if session.isClosed, let value = session.unstorableValue { throw AppError.unstorable(value) }
            return try handler(request, context, session)
        }
        return .deferred {
            try await reach(resolution, for: request, context: context) { session in
                try await handler(request, context, session).response()
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
        handler: @escaping SessionResolver.Handler
    ) {
        on(method, pattern) { request, context in try resolver.respond(to: request, context: context, with: handler) }
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
