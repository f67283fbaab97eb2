import HTTPCore

/// A router that times and counts every request by its route pattern (so `/v1/sessions/:id/chat` is one series,
/// not one per session), deferred answers included. Requests that match no route count as route `unmatched`.
struct MeteredRouter: HTTPResponder {
    private(set) var router = Router()
    let metrics: AppMetrics
    private let unmatched: AppMetrics.RouteMetrics

    init(metrics: AppMetrics) {
        self.metrics = metrics
        self.unmatched = metrics.route("unmatched", method: HTTPMethod("any"))
    }

    /// Adds a route whose handler may defer.
    mutating func on(_ method: HTTPMethod, _ pattern: String, handler: @escaping HTTPHandler) {
        let route = metrics.route(pattern, method: method)
        router.on(method, pattern) { request, context in
            let start = ContinuousClock.now
            let result: HTTPHandlerResult
            do {
                result = try Self.loadingSessions(handler, request, context)
            } catch {
                route.record(status: Self.status(of: error), since: start)
                throw error
            }
            switch result {
            case .response(let response):
                route.record(status: response.status.code, since: start)
                return result
            case .deferred(let work):
                return .deferred {
                    do {
                        let response = try await work()
                        route.record(status: response.status.code, since: start)
                        return response
                    } catch {
                        route.record(status: Self.status(of: error), since: start)
                        throw error
                    }
                }
            }
        }
    }

    /// `handler`'s result; when it needs a session loaded from the durable store first, the load runs off the event
    /// loop and the handler runs again after it (once: a session dropped again meanwhile answers 503).
    private static func loadingSessions(
        _ handler: @escaping HTTPHandler, _ request: HTTPRequest, _ context: HTTPRequestContext
    ) throws -> HTTPHandlerResult {
        do {
            return try handler(request, context)
        } catch let needed as SessionLoadNeeded {
            return .deferred {
                try await needed.load()
                let result: HTTPHandlerResult
                do {
                    result = try handler(request, context)
                } catch is SessionLoadNeeded {
                    throw AppError.storageUnavailable
                }
                switch result {
                case .response(let response): return response
                case .deferred(let work): return try await work()
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
        } catch let error as HTTPError where error.status == .notFound || error.status == .methodNotAllowed {
            unmatched.record(status: error.status.code, since: start)
            throw error
        }
    }

    private static func status(of error: any Error) -> Int {
        (error as? any HTTPResponseError)?.status.code ?? 500
    }
}
