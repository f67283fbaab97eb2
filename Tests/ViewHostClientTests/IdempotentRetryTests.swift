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

    @Test func aSendAProxyAnswers502AfterTheServerAppliedItIsRetriedAndAppliesOnce() async throws {
        let server = try await TestServer.start()
        let proxy = try TCPProxy(upstreamPort: server.port)
        defer { proxy.close() }
        let session = try await TestServer.client(port: proxy.port).createSession(features: ["chat"])
        // nginx forwarded the send, the node applied it, and the node went away before nginx read the answer (a
        // node switched in a deploy): the client hears nginx's 502 page and sends again with the same key.
        proxy.dropConnections()
        proxy.replaceNextResponse(
            with: "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: 6\r\n"
                + "Connection: close\r\n\r\n<html>")
        let receipt = try await session.send(ChatIntent.addChat)
        #expect(receipt.replayed, "the retry got the first answer again")
        let after = try await session.snapshot(ChatSnapshot.self)
        #expect(after.navigation == [.chatList, .createChat], "addChat applied once: one Create Chat screen")
    }

    @Test func aSendWhileTheServerRestartsIsRetriedUntilTheNewProcessAnswersAndAppliesOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-client-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let durable = ["--store", "sqlite", "--data-dir", directory.path]
        let first = try await TestServer.start(durable)
        let proxy = try TCPProxy(upstreamPort: first.port)
        defer { proxy.close() }
        // Enough tries to outlast the new process's start on a busy machine (its own deadline is 20 s, scaled):
        // each try waits at least 100 ms (half the test client's 200 ms cap), so 1,200 cover two minutes. 200 tries
        // (about 30 s) ran out once in a full run of the suite, before the second server answered.
        let client = TestServer.client(port: proxy.port, sendAttempts: 1_200 * TestDeadline.scale)
        let session = try await client.createSession(features: ["login"])
        first.send(signal: SIGTERM)
        #expect(try await first.waitForExit() == 0)
        // No server now: every try is cut at once (a refused connect behind the proxy) and retried with its key.
        let send = Task { try await session.send(LoginIntent.setUsername(value: "after-restart")) }
        defer { send.cancel() }  // when the new process does not start: no tries left behind
        #expect(
            await eventually(timeout: .seconds(30), interval: .milliseconds(50)) { proxy.connectionsRefusedUpstream > 0 }, "the send was tried while no server ran")
        let second = try await TestServer.start(durable)
        proxy.upstreamPort = second.port
        let receipt = try await send.value
        #expect(!receipt.replayed && receipt.version == 2, "applied once, by the new process: \(receipt)")
        let after = try await session.snapshot(LoginSnapshot.self)
        #expect(after.username == "after-restart" && after.version == 2)
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
