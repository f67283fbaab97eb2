import HTTPCore

/// A router that times and counts every request by its route pattern (so `/v1/sessions/:id/chat` is one series,
/// not one per session), deferred answers included. Requests that match no route count as route `unmatched`;
/// a `405` counts under the route its path matched. Each request also goes to the ``AccessLog`` under the same
/// pattern.
struct MeteredRouter: HTTPResponder {
    private(set) var router = Router()
    let metrics: AppMetrics
    private let unmatched: AppMetrics.RouteMetrics

    /// Where each request is logged (and refusals by a limit), if anywhere.
    let accessLog: AccessLog?
    /// The hop to the node that owns a session, when this node forwards (a cluster with internal addresses).
    let hop: ClusterHop?

    init(metrics: AppMetrics, accessLog: AccessLog? = nil, hop: ClusterHop? = nil) {
        self.metrics = metrics
        self.accessLog = accessLog
        self.hop = hop
        self.unmatched = metrics.route("unmatched", method: HTTPMethod("any"))
    }

    /// Adds a route whose handler may defer.
    mutating func on(_ method: HTTPMethod, _ pattern: String, handler: @escaping HTTPHandler) {
        let route = metrics.route(pattern, method: method)
        let accessLog = accessLog
        let hop = hop
        router.on(method, pattern) { request, context in
            let start = ContinuousClock.now
            let result: HTTPHandlerResult
            do {
                result = try Self.loadingSessions(handler, request, context, hop: hop)
            } catch {
                route.record(status: Self.status(of: error), since: start)
                accessLog?.record(.failure(error), request: request, route: pattern, context: context, since: start)
                throw error
            }
            return try result.map { outcome in
                switch outcome {
                case .success(let response):
                    route.record(status: response.status.code, since: start)
                    accessLog?.record(.success(response), request: request, route: pattern, context: context, since: start)
                    return response
                case .failure(let error):
                    route.record(status: Self.status(of: error), since: start)
                    accessLog?.record(.failure(error), request: request, route: pattern, context: context, since: start)
                    throw error
                }
            }
        }
    }

    /// `handler`'s result; when it needs a session loaded from the durable store first (at once, or because the
    /// copy it held was dropped before anything was applied), the load runs off the event loop and the handler
    /// runs again after it; when the session is another node's, the request goes there.
    private static func loadingSessions(
        _ handler: @escaping HTTPHandler, _ request: HTTPRequest, _ context: HTTPRequestContext, hop: ClusterHop?
    ) throws -> HTTPHandlerResult {
        let result: HTTPHandlerResult
        do {
            result = try handler(request, context)
        } catch let step where Step(step) != nil {
            return .deferred { try await again(handler, request, context, from: Step(step)!, hop: hop) }
        }
        switch result {
        case .response:
            return result
        case .deferred(let work):
            return .deferred {
                do {
                    return try await work()
                } catch let step where Step(step) != nil {
                    return try await again(handler, request, context, from: Step(step)!, hop: hop)
                }
            }
        case .callback(let start):
            return .callback { answer in
                start { outcome in
                    guard case .failure(let error) = outcome, let step = Step(error) else { return answer(outcome) }
                    Task {
                        do {
                            answer(.success(try await again(handler, request, context, from: step, hop: hop)))
                        } catch {
                            answer(.failure(error))
                        }
                    }
                }
            }
        }
    }

    /// What a request needs before it can be answered: its session loaded here, or the request sent to the node
    /// that owns the session.
    private enum Step {
        case load(SessionLoadNeeded)
        case forward(SessionElsewhere)

        init?(_ error: any Error) {
            if let needed = error as? SessionLoadNeeded {
                self = .load(needed)
            } else if let elsewhere = error as? SessionElsewhere {
                self = .forward(elsewhere)
            } else {
                return nil
            }
        }
    }

    /// How many times one request loads a session before it is answered 503: it loads again only when the copy
    /// it loaded ended before anything of the request was applied (a write of another request failed to be kept),
    /// so more means the store still fails.
    static let maxLoads = 3

    /// Runs `step`: a load, then `handler` again with the loaded copy; or the hop to the session's owner, whose
    /// answer is relayed (when the owner is gone the session is loaded here, and when it moved, looked up again);
    /// as often as ``maxLoads`` allows.
    private static func again(
        _ handler: @escaping HTTPHandler, _ request: HTTPRequest, _ context: HTTPRequestContext, from step: Step,
        hop: ClusterHop?
    ) async throws -> HTTPResponse {
        var step = step
        for _ in 0..<maxLoads {
            do {
                switch step {
                case .load(let needed):
                    let loaded = try await needed.load()
                    return try await SessionLoadNeeded.$loaded.withValue(loaded) {
                        try await handler(request, context).response()
                    }
                case .forward(let elsewhere):
                    guard let hop else { throw AppError.sessionUnavailable }
                    switch try await hop.forward(request, for: elsewhere.id, context: context, to: elsewhere.owner) {
                    case .answered(let response): return response
                    case .unreachable: step = .load(elsewhere.takeOver)
                    case .misdirected: step = .load(elsewhere.lookUpAgain)
                    }
                }
            } catch let next where Step(next) != nil {
                step = Step(next)!
            }
        }
        throw AppError.sessionUnavailable
    }

    /// Adds a route answered at once.
    mutating func get(
        _ pattern: String, handler: @escaping @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) {
        on(.get, pattern) { request, context in .response(try handler(request, context)) }
    }

    /// Adds a route answered at once.
    mutating func post(
        _ pattern: String, handler: @escaping @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) {
        on(.post, pattern) { request, context in .response(try handler(request, context)) }
    }

    /// Adds a route answered at once.
    mutating func delete(
        _ pattern: String, handler: @escaping @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) {
        on(.delete, pattern) { request, context in .response(try handler(request, context)) }
    }

    func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPHandlerResult {
        let start = ContinuousClock.now
        do {
            return try router.respond(to: request, context: context)
        } catch let error as HTTPError where error.status == .methodNotAllowed {
            // Counted under the route the path matched, with the method (one of a few names, so a client cannot
            // make a series per made-up method).
            let method = Self.countedMethods.contains(request.method) ? request.method : HTTPMethod("other")
            let pattern = router.matchingPattern(for: request)
            let route = pattern.map { metrics.route($0, method: method) } ?? unmatched
            route.record(status: error.status.code, since: start)
            accessLog?.record(
                .failure(error), request: request, route: pattern ?? "unmatched", context: context, since: start)
            throw error
        } catch let error as HTTPError where error.status == .notFound {
            unmatched.record(status: error.status.code, since: start)
            accessLog?.record(.failure(error), request: request, route: "unmatched", context: context, since: start)
            throw error
        }
    }

    private static let countedMethods: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]

    private static func status(of error: any Error) -> Int {
        (error as? any HTTPResponseError)?.status.code ?? 500
    }
}
