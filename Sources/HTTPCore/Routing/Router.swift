/// Routes requests by method and path pattern, in registration order.
///
/// - No route's pattern matches the path: `404`.
/// - A pattern matches but not for this method: `405` with `Allow` (RFC 9110 §15.5.6).
/// - `HEAD` is answered by the `GET` route (the server drops the body); `OPTIONS` by an explicit route, or
///   with `204` and `Allow`; `OPTIONS *` lists every method the router serves (RFC 9110 §9.3.7).
///
/// ```swift
/// var router = Router()
/// router.get("/healthz") { _, _ in HTTPResponse(contentType: "application/json", bytes: Array(#"{"status":"ok"}"#.utf8)) }
/// router.on(.post, "/v1/items/:id") { request, context in .deferred { try await save(context.parameters["id"]) } }
/// ```
public struct Router: HTTPResponder {
    private var routes: [Route] = []

    /// Creates an empty router.
    public init() {}

    /// Adds a route whose handler may defer.
    /// - Parameters:
    ///   - method: The method.
    ///   - pattern: The path pattern, such as `/v1/sessions/:id`.
    ///   - handler: The handler.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, handler: @escaping HTTPHandler) {
        routes.append(Route(method: method, pattern: RoutePattern(pattern), handler: handler))
    }

    /// Adds a `GET` (and `HEAD`) route answered at once.
    public mutating func get(
        _ pattern: String, handler: @escaping @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) {
        on(.get, pattern) { request, context in .response(try handler(request, context)) }
    }

    /// Adds a `POST` route answered at once.
    public mutating func post(
        _ pattern: String, handler: @escaping @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) {
        on(.post, pattern) { request, context in .response(try handler(request, context)) }
    }

    /// Adds a `DELETE` route answered at once.
    public mutating func delete(
        _ pattern: String, handler: @escaping @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) {
        on(.delete, pattern) { request, context in .response(try handler(request, context)) }
    }

    /// Answers with the first route of the request's method (`HEAD` uses `GET`'s) whose pattern matches the path, its
    /// parameters in the context. A path that other methods' routes match is answered `405` with `Allow` (`204` with
    /// `Allow` for `OPTIONS`); `OPTIONS *` lists every routed method; a path no route matches throws `404`.
    public func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPHandlerResult {
        if request.method == .options, request.pathRange.count == 1, request.path == "*" {
            return .response(HTTPResponse(status: .noContent, headers: [.allow: allowValue(all: true, [])]))
        }
        let lookupMethod = request.method == .head ? HTTPMethod.get : request.method
        // Routes are looked at in place (a `for route in routes` copied each one, three retains apiece, and that
        // was 2.5% of a snapshot GET), and only those of the request's method are matched; the others are matched
        // only to answer 405 with the methods the path does allow.
        let match: (index: Int, parameters: RouteParameters)? = request.withPathBytes { path in
            routes.withUnsafeBufferPointer { routes in
                for index in routes.indices where routes[index].method == lookupMethod {
                    var parameters = RouteParameters()
                    if routes[index].pattern.match(path, parameters: &parameters) { return (index, parameters) }
                }
                return nil
            }
        }
        if let match {
            var routed = context
            routed.parameters = match.parameters
            return try routes[match.index].handler(request, routed)
        }
        let allowed: [HTTPMethod] = request.withPathBytes { path in
            let matching = routes.filter { route in
                var parameters = RouteParameters()
                return route.pattern.match(path, parameters: &parameters)
            }
            // The methods of the resource the path names: a route whose pattern has a literal where another's has a
            // parameter is that resource's (`POST /sessions/:id/contacts`), and the other's methods are not its own.
            let specific = matching.map(\.pattern.literalCount).max() ?? 0
            return matching.filter { $0.pattern.literalCount == specific }.map(\.method)
        }
        guard !allowed.isEmpty else {
            throw HTTPError(.notFound, detail: "No resource exists at \(request.path).")
        }
        let allow = allowValue(all: false, allowed)
        if request.method == .options {
            return .response(HTTPResponse(status: .noContent, headers: [.allow: allow]))
        }
        throw HTTPError(
            .methodNotAllowed, detail: "\(request.method) is not allowed on \(request.path); use \(allow).",
            headers: [.allow: allow])
    }

    /// The pattern of the first route whose pattern matches `request`'s path, whatever its method: the route a
    /// `405` was meant for (metrics count it there), or nil when no route matches (a `404`).
    public func matchingPattern(for request: HTTPRequest) -> String? {
        request.withPathBytes { path in
            routes.first { route in
                var parameters = RouteParameters()
                return route.pattern.match(path, parameters: &parameters)
            }?.pattern.description
        }
    }

    /// The `Allow` value: the given methods (or every routed method), with `HEAD` for `GET`, and `OPTIONS`.
    private func allowValue(all: Bool, _ methods: [HTTPMethod]) -> String {
        var names: [String] = []
        for method in all ? routes.map(\.method) : methods where !names.contains(method.rawValue) {
            names.append(method.rawValue)
            if method == .get, !names.contains("HEAD") { names.append("HEAD") }
        }
        if !names.contains("OPTIONS") { names.append("OPTIONS") }
        return names.joined(separator: ", ")
    }
}
