import Testing

@testable import HTTPCore

/// `RoutePattern.match` is internal: the router is its only caller, and these cases are easier to state alone.
struct RoutePatternTests {
    @Test(arguments: [
        ("/", "/"),
        ("/healthz", "/healthz"),
        ("/v1/sessions", "/v1/sessions"),
        ("/a/b/c", "/a/b/c"),
    ])
    func literalPatternMatchesItsPath(pattern: String, path: String) {
        #expect(Self.match(pattern, path) == RouteParameters())
    }

    @Test(arguments: [
        ("/healthz", "/healthz/"),
        ("/healthz", "/health"),
        ("/healthz", "/healthzz"),
        ("/healthz", "/HEALTHZ"),
        ("/v1/sessions", "/v1"),
        ("/v1/sessions", "/v1/sessions/x"),
        ("/v1/sessions", "/v1//sessions"),
        ("/", "/x"),
        ("/", ""),
        ("/v1/sessions/:id", "/v1/sessions/"),
        ("/v1/sessions/:id", "/v1/sessions"),
        ("/v1/sessions/:id", "/v1/sessions/a/"),
        ("/v1/sessions/:id", "/v1/sessions/a/b"),
    ])
    func otherPathDoesNotMatch(pattern: String, path: String) {
        #expect(Self.match(pattern, path) == nil)
    }

    @Test func trailingSlashDoesNotMatch() {
        #expect(Self.match("/v1/items", "/v1/items/") == nil)
        #expect(Self.match("/v1/items/", "/v1/items") == nil)
        #expect(Self.match("/v1/items/", "/v1/items/") == RouteParameters())
    }

    @Test func parametersAreCapturedInOrder() throws {
        let parameters = try #require(Self.match("/v1/sessions/:id/:feature/events", "/v1/sessions/s-1/chat/events"))
        #expect(parameters["id"] == "s-1")
        #expect(parameters["feature"] == "chat")
        #expect(parameters["missing"] == nil)
    }

    @Test(arguments: [
        ("/items/a%20b", "a b"),
        ("/items/caf%C3%A9", "caf\u{E9}"),
        ("/items/a%2Fb", "a/b"),
        ("/items/a+b", "a+b"),
        ("/items/100%25", "100%"),
    ])
    func parameterIsPercentDecoded(path: String, value: String) {
        #expect(Self.match("/items/:id", path)?["id"] == value)
    }

    @Test(arguments: ["/items/%", "/items/%2", "/items/%zz", "/items/%C3"])
    func parameterWithABadEscapeDoesNotMatch(path: String) {
        #expect(Self.match("/items/:id", path) == nil)
    }

    @Test(arguments: [
        ("/static/*", "/static/css/site.css", "css/site.css"),
        ("/static/*", "/static/", ""),
        ("/static/*", "/static", ""),
        ("/static/*", "/static/a%20b/c", "a b/c"),
        ("/*", "/anything/at/all", "anything/at/all"),
    ])
    func restCapturesTheRemainingPath(pattern: String, path: String, rest: String) {
        #expect(Self.match(pattern, path)?["*"] == rest)
    }

    @Test func restNeedsItsPrefix() {
        #expect(Self.match("/static/*", "/other/x") == nil)
        #expect(Self.match("/static/*", "/staticx/y") == nil)
    }

    @Test func parameterBeforeRestIsCaptured() throws {
        let parameters = try #require(Self.match("/files/:owner/*", "/files/ann/docs/a.txt"))
        #expect(parameters["owner"] == "ann")
        #expect(parameters["*"] == "docs/a.txt")
    }

    @Test func descriptionIsThePatternAsWritten() {
        #expect(RoutePattern("/v1/sessions/:id").description == "/v1/sessions/:id")
    }

    private static func match(_ pattern: String, _ path: String) -> RouteParameters? {
        var parameters = RouteParameters()
        let matched = Array(path.utf8).withUnsafeBytes { RoutePattern(pattern).match($0, parameters: &parameters) }
        return matched ? parameters : nil
    }
}
