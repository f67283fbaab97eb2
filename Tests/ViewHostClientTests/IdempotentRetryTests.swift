import Foundation
import TestSupport
import Testing
import ChatAPI
import LoginAPI
import PersonAPI
import WeatherAPI
import ViewHostAPI
import ViewHostClient

/// A send whose answer is lost is retried with the same `Idempotency-Key`, and applies once.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct IdempotentRetryTests {
    @Test func aSendWhoseAnswerIsLostAppliesOnce() async throws {
        let server = try await TestServer.start()
        let proxy = try TCPProxy(upstreamPort: server.port)
        defer { proxy.close() }
        let session = try await TestServer.client(port: proxy.port).createSession(features: ["chat"])
        let before = try await session.snapshot(ChatSnapshot.self)

        // The server applies the event; its 202 never reaches the client, which sends it again with the same key.
        // (The pooled connection is cut first, so the send goes out on a new one: on a reused one, libcurl would
        // repeat the request by itself, and swift-corelibs-foundation's repeat lacks the body; see
        // ViewHostError.isRetryable.)
        proxy.dropConnections()
        proxy.dropNextResponse()
        let receipt = try await session.send(ChatIntent.addChat)
        #expect(receipt.replayed, "the retry got the first answer again")
        #expect(receipt.accepted == 1)

        let after = try await session.snapshot(ChatSnapshot.self)
        #expect(after.navigation == [.chatList, .createChat], "addChat applied once: one Create Chat screen")
        let accepted = try await TestServer.requestCount(
            port: server.port, route: "/v1/sessions/:id/:feature/events", method: "POST", status: 202)
        #expect(accepted == 2, "two answers, one of them a replay")
        #expect(after.version >= before.version + 1)
    }

    @Test func separateSendsAreSeparateEvents() async throws {
        let server = try await TestServer.start()
        let session = try await TestServer.client(port: server.port).createSession(features: ["login"])
        let first = try await session.send(LoginIntent.setUsername(value: "same"))
        let second = try await session.send(LoginIntent.setUsername(value: "same"))
        #expect(!first.replayed && !second.replayed, "each logical send has its own key")
        #expect(second.version == first.version, "the same value again changes nothing")
    }
}
