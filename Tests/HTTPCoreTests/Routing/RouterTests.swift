import HTTPCore
import Logging
import Testing

/// Routing by method and path: 404, 405 with `Allow`, HEAD through GET, and OPTIONS (RFC 9110 §9.3.7, §15.5.6).
struct RouterTests {
    @Test func literalRouteAnswers() throws {
        let response = try Self.respond(Self.router, .get, "/healthz")
        #expect(response.status == .ok)
        #expect(Self.text(response) == "GET healthz")
    }

    @Test func queryIsNotPartOfTheMatch() throws {
        #expect(Self.text(try Self.respond(Self.router, .get, "/healthz?verbose=1")) == "GET healthz")
    }

    @Test func parametersReachTheHandlerDecoded() throws {
        let response = try Self.respond(Self.router, .post, "/v1/sessions/a%20b/chat/events")
        #expect(Self.text(response) == "POST events id=a b feature=chat")
    }

    @Test func restCaptureReachesTheHandler() throws {
        #expect(Self.text(try Self.respond(Self.router, .get, "/static/css/site.css")) == "GET static css/site.css")
    }

    @Test func firstRegisteredRouteWins() throws {
        var router = Router()
        router.get("/items/new") { _, _ in Self.reply("literal") }
        router.get("/items/:id") { _, _ in Self.reply("parameter") }
        #expect(Self.text(try Self.respond(router, .get, "/items/new")) == "literal")
        #expect(Self.text(try Self.respond(router, .get, "/items/7")) == "parameter")
    }

    @Test(arguments: ["/nothing", "/healthz/", "/v1/sessions/x", "/"])
    func unknownPathIsNotFound(path: String) {
        let error = Self.httpError { try Self.respond(Self.router, .get, path) }
        #expect(error?.status == .notFound)
        #expect(error?.headers.contains(.allow) == false)
    }

    @Test func wrongMethodIsNotAllowedWithAllow() {
        let error = Self.httpError { try Self.respond(Self.router, .delete, "/healthz") }
        #expect(error?.status == .methodNotAllowed)
        #expect(error?.headers[.allow] == "GET, HEAD, OPTIONS")
    }

    @Test func allowListsEveryMethodOfThePath() {
        var router = Router()
        router.post("/items") { _, _ in Self.reply("post") }
        router.get("/items") { _, _ in Self.reply("get") }
        router.delete("/items") { _, _ in Self.reply("delete") }
        let error = Self.httpError { try Self.respond(router, .put, "/items") }
        #expect(error?.status == .methodNotAllowed)
        #expect(error?.headers[.allow] == "POST, GET, HEAD, DELETE, OPTIONS")
    }

    @Test func headIsAnsweredByTheGetRoute() throws {
        let response = try Self.respond(Self.router, .head, "/healthz")
        #expect(response.status == .ok)
        #expect(Self.text(response) == "HEAD healthz", "the handler sees HEAD; the server drops the body")
    }

    @Test func headWithoutAGetRouteIsNotAllowed() {
        let error = Self.httpError { try Self.respond(Self.router, .head, "/v1/sessions/s/chat/events") }
        #expect(error?.status == .methodNotAllowed)
        #expect(error?.headers[.allow] == "POST, OPTIONS")
    }

    @Test func optionsAsteriskListsEveryRoutedMethod() throws {
        let response = try Self.respond(Self.router, .options, "*")
        #expect(response.status == .noContent)
        #expect(response.headers[.allow] == "GET, HEAD, POST, OPTIONS")
    }

    /// A path that a pattern names by a literal and another only by a parameter is the literal's resource: `Allow`
    /// lists its methods, not the other pattern's.
    @Test func allowListsTheMethodsOfTheMostSpecificPattern() throws {
        var router = Router()
        router.get("/sessions/:id/:feature") { _, _ in Self.reply("feature") }
        router.post("/sessions/:id/contacts") { _, _ in Self.reply("contacts") }
        router.get("/sessions/:id/invitations") { _, _ in Self.reply("invitations") }
        router.post("/sessions/:id/invitations") { _, _ in Self.reply("invite") }
        #expect(try Self.respond(router, .options, "/sessions/a/contacts").headers[.allow] == "POST, OPTIONS")
        #expect(Self.httpError { try Self.respond(router, .put, "/sessions/a/contacts") }?.headers[.allow] == "POST, OPTIONS")
        #expect(
            try Self.respond(router, .options, "/sessions/a/invitations").headers[.allow] == "GET, HEAD, POST, OPTIONS")
        #expect(try Self.respond(router, .options, "/sessions/a/chat").headers[.allow] == "GET, HEAD, OPTIONS")
    }

    @Test func optionsOnAPathListsItsMethods() throws {
        let response = try Self.respond(Self.router, .options, "/healthz")
        #expect(response.status == .noContent)
        #expect(response.headers[.allow] == "GET, HEAD, OPTIONS")
    }

    @Test func explicitOptionsRouteIsUsed() throws {
        var router = Router()
        router.get("/cors") { _, _ in Self.reply("get") }
        router.on(.options, "/cors") { _, _ in .response(Self.reply("preflight")) }
        #expect(Self.text(try Self.respond(router, .options, "/cors")) == "preflight")
    }

    @Test func optionsOnAnUnknownPathIsNotFound() {
        #expect(Self.httpError { try Self.respond(Self.router, .options, "/nothing") }?.status == .notFound)
    }

    @Test func handlerErrorsPassThrough() {
        var router = Router()
        router.get("/teapot") { _, _ in throw HTTPError(.conflict, detail: "No.") }
        #expect(Self.httpError { try Self.respond(router, .get, "/teapot") }?.status == .conflict)
    }

    // MARK: - Fixtures

    /// Every handler answers `"<method> <route> <captures>"` so a test sees which route ran and with what.
    private static let router: Router = {
        var router = Router()
        router.get("/healthz") { request, _ in reply("\(request.method) healthz") }
        router.post("/v1/sessions/:id/:feature/events") { request, context in
            reply(
                "\(request.method) events id=\(context.parameters["id"] ?? "-") feature=\(context.parameters["feature"] ?? "-")"
            )
        }
        router.get("/static/*") { request, context in
            reply("\(request.method) static \(context.parameters["*"] ?? "-")")
        }
        return router
    }()

    private static func reply(_ text: String) -> HTTPResponse {
        HTTPResponse(contentType: "text/plain", bytes: Array(text.utf8))
    }

    private static func respond(_ router: Router, _ method: HTTPMethod, _ target: String) throws -> HTTPResponse {
        let context = HTTPRequestContext(requestID: "t", logger: Logger(label: "test"))
        let result = try router.respond(to: HTTPRequest(method: method, target: target), context: context)
        guard case .response(let response) = result else {
            Issue.record("expected an immediate response")
            return HTTPResponse(status: .internalServerError)
        }
        return response
    }

    private static func text(_ response: HTTPResponse) -> String? {
        guard case .bytes(let bytes) = response.body else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func httpError(_ body: () throws -> HTTPResponse) -> HTTPError? {
        do {
            let response = try body()
            Issue.record("expected an error, got \(response.status)")
            return nil
        } catch let error as HTTPError {
            return error
        } catch {
            Issue.record("expected an HTTPError, got \(error)")
            return nil
        }
    }
}
