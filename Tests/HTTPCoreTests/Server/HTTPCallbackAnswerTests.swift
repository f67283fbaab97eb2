import Dispatch
import HTTPCore
import Testing
import TestSupport

/// A handler that answers through a callback (`HTTPHandlerResult.callback`, no task): the answer may come from any
/// thread, later or at once; requests pipelined behind it wait and are answered in order; an error is answered as a
/// thrown one is; a second answer is ignored, never given to the next request.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct HTTPCallbackAnswerTests {
    static func routes(_ router: inout Router) {
        TestServer.standardRoutes(&router)
        // Answers from another thread after `ms` milliseconds, twice (the second must be dropped).
        router.on(.get, "/later/:ms") { _, context in
            let milliseconds = Int(context.parameters["ms"] ?? "") ?? 0
            return .callback { answer in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
                    answer(.success(HTTPResponse(contentType: "text/plain", bytes: Array("later \(milliseconds)".utf8))))
                    answer(.success(HTTPResponse(contentType: "text/plain", bytes: Array("twice".utf8))))
                }
            }
        }
        // Answers on the event loop, before the handler's result is even acted on.
        router.on(.get, "/now") { _, _ in
            .callback { answer in answer(.success(HTTPResponse(contentType: "text/plain", bytes: Array("now".utf8)))) }
        }
        router.on(.get, "/failing") { _, _ in
            .callback { answer in
                DispatchQueue.global().async { answer(.failure(HTTPError(.contentTooLarge, detail: "Too large."))) }
            }
        }
    }

    @Test func answersFromAnyThreadComeInTheOrderRequestsWerePipelined() async throws {
        let server = try TestServer(routes: Self.routes)
        let client = try server.client()
        try client.send(
            "GET /later/80 HTTP/1.1\r\nHost: x\r\n\r\nGET /now HTTP/1.1\r\nHost: x\r\n\r\nGET /later/1 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /items/4 HTTP/1.1\r\nHost: x\r\n\r\n")
        var bodies: [String] = []
        for _ in 0..<4 { bodies.append(try await client.readResponse().text) }
        #expect(bodies == ["later 80", "now", "later 1", "item 4"])
        await server.stop()
    }

    @Test func anErrorIsAnsweredAsAThrownOneAndTheConnectionGoesOn() async throws {
        let server = try TestServer(routes: Self.routes)
        let client = try server.client()
        try client.send("GET /failing HTTP/1.1\r\nHost: x\r\n\r\n")
        let failed = try await client.readResponse()
        #expect(failed.status == 413)
        #expect(failed.header("Content-Type") == "application/problem+json")
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().text == "hello")
        await server.stop()
    }

    @Test func aResultMappedOrAwaitedGivesTheSameAnswer() async throws {
        let result = HTTPHandlerResult.callback { answer in
            DispatchQueue.global().async {
                answer(.success(HTTPResponse(contentType: "text/plain", bytes: Array("made".utf8))))
            }
        }
        let mapped = try result.map { outcome in
            var response = try outcome.get()
            response.headers.add("X-Mapped", "yes")
            return response
        }
        let response = try await mapped.response()
        #expect(response.headers["X-Mapped"] == "yes")
        #expect(try await HTTPHandlerResult.response(HTTPResponse(status: .noContent)).response().status == .noContent)
    }
}
