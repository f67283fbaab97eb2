import HTTPCore

/// Cross-origin access for front-ends on other origins (API.md "Conventions"): only origins listed in the
/// configuration get `Access-Control-*` answers; by default none does (same-origin only). Preflight `OPTIONS`
/// requests from allowed origins are answered here with the methods and headers the API uses.
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
        if request.method == .options, request.headers.contains(.accessControlRequestMethod) {
            guard allowed else {
                throw HTTPError(.forbidden, detail: "The origin \(origin) may not call this API.")
            }
            return .response(
                HTTPResponse(
                    status: .noContent,
                    headers: [
                        .accessControlAllowOrigin: origin, .vary: "Origin",
                        .accessControlAllowMethods: "GET, HEAD, POST, DELETE, OPTIONS",
                        .accessControlAllowHeaders: Self.allowedHeaders, .accessControlMaxAge: "600",
                    ]))
        }
        guard allowed else { return try wrapped.respond(to: request, context: context) }
        do {
            switch try wrapped.respond(to: request, context: context) {
            case .response(let response):
                return .response(Self.decorated(response, origin: origin))
            case .deferred(let work):
                return .deferred { Self.decorated(try await work(), origin: origin) }
            }
        } catch let error as any HTTPResponseError {
            return .response(Self.decorated(error.response, origin: origin))
        }
    }

    private static func decorated(_ response: HTTPResponse, origin: String) -> HTTPResponse {
        var response = response
        response.headers.add(.accessControlAllowOrigin, origin)
        response.headers.add(.accessControlExposeHeaders, exposedHeaders)
        response.headers.add(.vary, "Origin")
        return response
    }
}
