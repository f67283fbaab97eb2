import HTTPCore

/// A router that times and counts every request by its route pattern (so `/v1/sessions/:id/chat` is one series,
/// not one per session), deferred answers included. Requests that match no route count as route `unmatched`;
/// a `405` counts under the route its path matched. Each request also goes to the ``AccessLog`` under the same
/// pattern. It observes requests; it never decides where one goes (a session's routes resolve their session first,
/// ``SessionResolver``).
struct MeteredRouter: HTTPResponder {
    private(set) var router = Router()
    let metrics: AppMetrics
    private let unmatched: AppMetrics.RouteMetrics

    /// Where each request is logged (and refusals by a limit), if anywhere.
    let accessLog: AccessLog?

    init(metrics: AppMetrics, accessLog: AccessLog? = nil) {
        self.metrics = metrics
        self.accessLog = accessLog
        self.unmatched = metrics.route("unmatched", method: HTTPMethod("any"))
    }

    /// Adds a route whose handler may defer.
    mutating func on(_ method: HTTPMethod, _ pattern: String, handler: @escaping HTTPHandler) {
        let route = metrics.route(pattern, method: method)
        let accessLog = accessLog
        router.on(method, pattern) { request, context in
            let start = ContinuousClock.now
            let result: HTTPHandlerResult
            do {
                result = try handler(request, context)
            } catch {
                route.record(status: Self.status(of: error), since: start)
                accessLog?.record(.failure(error), request: request, route: pattern, context: context, since: start)
                throw error
            }
            return try result.map { outcome in
                switch outcome {
                case .success(let response):
                    route.record(status: response.status.code, since: start)
                    accessLog?.record(
                        .success(response), request: request, route: pattern, context: context, since: start)
                    return response
                case .failure(let error):
                    route.record(status: Self.status(of: error), since: start)
                    accessLog?.record(.failure(error), request: request, route: pattern, context: context, since: start)
                    throw error
                }
            }
        }
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
