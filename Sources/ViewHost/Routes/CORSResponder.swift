import HTTPCore

/// Cross-origin access for front-ends on other origins (API.md "Conventions"): only origins listed in the
/// configuration get `Access-Control-*` answers; by default none does (same-origin only). Preflight `OPTIONS`
/// requests from allowed origins are answered here with the methods and headers the API uses.
///
/// With a list configured it is enforced on every request, not only on preflights: a request whose `Origin` is
/// neither listed nor the server's own (the `Host` it was sent to) gets `403` before any route runs, so a plain
/// cross-origin `POST` (which a browser sends without a preflight) cannot create a session or post an event.
/// Requests without `Origin` (curl, servers) are unaffected. With no list, nothing is refused here: the browser's
/// same-origin policy applies, and a proxy that rewrites `Host` cannot turn same-origin pages away.
struct CORSResponder: HTTPResponder {
    static let allowedHeaders = "Authorization, Content-Type, Idempotency-Key, If-None-Match, Last-Event-ID"
    static let exposedHeaders = "ETag, Location, Retry-After, X-Request-Id"

    let wrapped: any HTTPResponder
    let allowedOrigins: Set<String>

    func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPHandlerResult {
        guard !allowedOrigins.isEmpty, let origin = request.headers[.origin] else {
            return try wrapped.respond(to: request, context: context)
        }
        let allowed = allowedOrigins.contains(origin) || allowedOrigins.contains("*")
        guard allowed || Self.isSameOrigin(origin, host: request.headers[.host]) else {
            throw HTTPError(.forbidden, detail: "The origin \(origin) may not call this API.")
        }
        if request.method == .options, request.headers.contains(.accessControlRequestMethod) {
            return .response(
                HTTPResponse(
                    status: .noContent,
                    headers: [
                        .accessControlAllowOrigin: origin, .vary: "Origin",
                        .accessControlAllowMethods: "GET, HEAD, POST, DELETE, OPTIONS",
                        .accessControlAllowHeaders: Self.allowedHeaders, .accessControlMaxAge: "600",
                    ]))
        }
        guard allowed else { return try wrapped.respond(to: request, context: context) }  // same-origin
        do {
            return try wrapped.respond(to: request, context: context).map {
                Self.decorated(try $0.get(), origin: origin)
            }
        } catch let error as any HTTPResponseError {
            return .response(Self.decorated(error.response, origin: origin))
        }
    }

    /// Whether `origin` (`http://host:port`) names the host the request was sent to, as a same-origin page's
    /// requests do.
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, !host.isEmpty else { return false }
        for scheme in ["http://", "https://"] where origin.hasPrefix(scheme) {
            return origin.dropFirst(scheme.count).lowercased() == host.lowercased()
        }
        return false
    }

    private static func decorated(_ response: HTTPResponse, origin: String) -> HTTPResponse {
        var response = response
        response.headers.add(.accessControlAllowOrigin, origin)
        response.headers.add(.accessControlExposeHeaders, exposedHeaders)
        response.headers.add(.vary, "Origin")
        return response
    }
}
