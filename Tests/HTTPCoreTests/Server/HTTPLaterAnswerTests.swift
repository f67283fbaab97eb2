import Dispatch
import HTTPCore
import Testing
import TestSupport
import ViewHostLocking

/// A handler that answers later (`HTTPHandlerResult.later`, a callback and no task, or `.deferred`, async work on a
/// task): the answer may come from any thread, later or at once; requests pipelined behind it wait and are answered
/// in order; an error is answered as a thrown one is; a second answer is ignored, never given to the next request.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct HTTPLaterAnswerTests {
    static func routes(_ router: inout Router) {
        TestServer.standardRoutes(&router)
        // Answers from another thread after `ms` milliseconds, twice (the second must be dropped).
        router.on(.get, "/later/:ms") { _, context in
            let milliseconds = Int(context.parameters["ms"] ?? "") ?? 0
            return .later { answer in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
                    answer(.success(HTTPResponse(contentType: "text/plain", bytes: Array("later \(milliseconds)".utf8))))
                    answer(.success(HTTPResponse(contentType: "text/plain", bytes: Array("twice".utf8))))
                }
            }
        }
        // Answers on the event loop, before the handler's result is even acted on.
        router.on(.get, "/now") { _, _ in
            .later { answer in answer(.success(HTTPResponse(contentType: "text/plain", bytes: Array("now".utf8)))) }
        }
        router.on(.get, "/failing") { _, _ in
            .later { answer in
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
        let result = HTTPHandlerResult.later { answer in
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

    /// `.deferred` is a `.later` whose work runs on a task: its response, or its error, is the one answer, and a
    /// mapped one is transformed once.
    @Test func deferredWorkAnswersOnceWithItsOutcome() async throws {
        let made = HTTPHandlerResult.deferred { HTTPResponse(contentType: "text/plain", bytes: Array("made".utf8)) }
        let transforms = Locked(0)
        let mapped = try made.map { outcome in
            transforms.withLock { $0 += 1 }
            var response = try outcome.get()
            response.headers.add("X-Mapped", "yes")
            return response
        }
        let response = try await mapped.response()
        #expect(response.headers["X-Mapped"] == "yes")
        #expect(transforms.withLock { $0 } == 1)

        let failing = HTTPHandlerResult.deferred { throw HTTPError(.conflict, detail: "No.") }
        await #expect(throws: HTTPError.self) { try await failing.response() }
        guard case .later(let start) = failing else {
            Issue.record("deferred work is not answered later")
            return
        }
        let outcome = await withCheckedContinuation { continuation in start { continuation.resume(returning: $0) } }
        guard case .failure(let error) = outcome else {
            Issue.record("deferred work that threw answered \(outcome)")
            return
        }
        #expect((error as? HTTPError)?.status == .conflict)
    }
}
