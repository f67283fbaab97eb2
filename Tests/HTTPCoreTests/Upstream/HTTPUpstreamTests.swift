import Foundation
import HTTPCore
import Testing
import TestSupport
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// The upstream client against a real server on loopback: whole answers, bodies and fields sent on, chunked answers
/// relayed as they come through a second server, kept connections reused (and replaced when the upstream closed
/// them), and a port nobody listens on reported as unreachable, which means nothing was sent.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct HTTPUpstreamTests {
    static func upstreamRoutes(_ router: inout Router) {
        TestServer.standardRoutes(&router)
        router.get("/fields") { request, _ in
            let names = ["X-Set", "X-Kept", "Connection", "TE"].map { "\($0)=\(request.headers[HTTPHeaderName($0)] ?? "-")" }
            return HTTPResponse(
                contentType: "text/plain", bytes: Array(names.joined(separator: " ").utf8),
                headers: ["ETag": "\"7\"", "Keep-Alive": "timeout=5"])
        }
        router.get("/parts") { _, _ in
            HTTPResponse(
                headers: [.contentType: "text/event-stream"],
                body: .stream(
                    HTTPBodyStream { writer in
                        for part in ["one\n", "two\n", "three\n"] {
                            try await writer.write(Array(part.utf8))
                            try await Task.sleep(for: .milliseconds(20))
                        }
                    }))
        }
    }

    @Test func aWholeAnswerComesBackWithItsFieldsButNotTheHopByHopOnes() async throws {
        let upstream = try TestServer(routes: Self.upstreamRoutes)
        let client = HTTPUpstream()
        let request = HTTPRequest(
            method: .get, target: "/fields",
            headers: ["X-Set": "from-client", "X-Kept": "kept", "Connection": "x-kept", "TE": "trailers"])
        let response = try await client.send(request, to: "127.0.0.1:\(upstream.port)", setting: [("X-Set", "replaced")])
        #expect(response.status == .ok)
        guard case .bytes(let body) = response.body else {
            Issue.record("a whole body expected, got \(response.body)")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == "X-Set=replaced X-Kept=kept Connection=- TE=-")
        #expect(response.headers["ETag"] == "\"7\"")
        #expect(response.headers["Keep-Alive"] == nil && response.headers[.contentLength] == nil)
        await upstream.stop()
    }

    @Test func aPostCarriesItsBodyAndAKeptConnectionIsReused() async throws {
        let upstream = try TestServer(routes: Self.upstreamRoutes)
        let client = HTTPUpstream()
        for index in 0..<5 {
            let request = HTTPRequest(method: .post, target: "/echo", body: Array("body \(index)".utf8))
            let response = try await client.send(request, to: "127.0.0.1:\(upstream.port)", setting: [])
            guard case .bytes(let body) = response.body else {
                Issue.record("a whole body expected")
                return
            }
            #expect(String(decoding: body, as: UTF8.self) == "body \(index)")
        }
        #expect(upstream.server.acceptedConnectionCount == 1, "one kept connection carried all five")
        await upstream.stop()
    }

    /// The upstream answers a kept-alive request and then closes the connection (as its idle timeout does): the
    /// next request goes on a new connection, not the closed one. The upstream here closes each connection once it
    /// answered and says so, so the test never depends on how soon a server's idle timer fires.
    @Test func aConnectionTheUpstreamClosedWhileIdleIsReplaced() async throws {
        let upstream = RawUpstream(answer: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", connections: 2)
        let client = HTTPUpstream()
        let address = "127.0.0.1:\(upstream.port)"
        #expect(try await client.send(HTTPRequest(method: .get, target: "/hello"), to: address, setting: []).status == .ok)
        #expect(await eventually { upstream.closed.withLock { $0 } == 1 })
        // The first connection is kept (its answer said nothing of closing), and closed by now: the next request
        // is answered on a second one.
        #expect(try await client.send(HTTPRequest(method: .get, target: "/hello"), to: address, setting: []).status == .ok)
        #expect(await eventually { upstream.closed.withLock { $0 } == 2 })
    }

    @Test func aChunkedAnswerIsRelayedAsItComes() async throws {
        let upstream = try TestServer(routes: Self.upstreamRoutes)
        let client = HTTPUpstream()
        let address = "127.0.0.1:\(upstream.port)"
        // A second server whose every answer is the upstream's.
        let relay = try TestServer { router in
            router.on(.get, "/parts") { request, _ in
                .deferred { try await client.send(request, to: address, setting: []) }
            }
        }
        let reader = try relay.client()
        try reader.send("GET /parts HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try await reader.readResponse()
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/event-stream")
        #expect(response.header("Transfer-Encoding") == "chunked")
        #expect(response.text == "one\ntwo\nthree\n")
        await relay.stop()
        await upstream.stop()
    }

    /// A listener on a free loopback port that answers each of its first `connections` connections, one after the
    /// other, with `answer` (nil: nothing at all) once it read a request head, then closes it after `hold`.
    final class RawUpstream: @unchecked Sendable {
        let port: Int
        private let fd: Int32
        /// How many connections it closed.
        let closed = Locked(0)

        convenience init(answer: String?, hold: Duration = .zero, connections: Int = 1) {
            self.init(answers: Array(repeating: answer, count: connections), hold: hold)
        }

        /// Connection `n` gets `answers[n]`.
        init(answers: [String?], hold: Duration = .zero) {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = fd
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            listen(fd, 4)
            port = Int(UInt16(bigEndian: address.sin_port))
            let closed = closed
            Thread {
                for answer in answers {
                    let client = accept(fd, nil, nil)
                    guard client >= 0 else { return }
                    var head: [UInt8] = []
                    var byte: UInt8 = 0
                    while recv(client, &byte, 1, 0) == 1 {
                        head.append(byte)
                        if head.suffix(4) == [13, 10, 13, 10] { break }
                    }
                    if let answer { _ = answer.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }
                    Thread.sleep(
                        forTimeInterval: Double(hold.components.seconds) + Double(hold.components.attoseconds) / 1e18)
                    close(client)
                    closed.withLock { $0 += 1 }
                }
            }.start()
        }

        deinit { close(fd) }
    }

    /// An upstream that stops as a request reaches it closes the new connection before any byte of an answer (a
    /// connection queued on a listener that closes is closed unread): a request that may run twice (an idempotent
    /// method, or an `Idempotency-Key`) goes once more on a new connection, which reaches the upstream's next
    /// listener or finds none (unreachable: the caller knows nothing was applied); any other fails.
    @Test func aNewConnectionClosedBeforeAnyAnswerIsTriedOnceMoreWhenTheRequestMayRunTwice() async throws {
        let ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        let keyed = RawUpstream(answers: [nil, ok])
        let post = HTTPRequest(
            method: .post, target: "/events", headers: ["Idempotency-Key": "k1"], body: Array("{}".utf8))
        let answer = try await HTTPUpstream().send(post, to: "127.0.0.1:\(keyed.port)", setting: [])
        #expect(answer.status == .ok)
        #expect(keyed.closed.withLock { $0 } >= 1)
        let plain = RawUpstream(answers: [nil, ok])
        await #expect(throws: HTTPUpstreamError.self) {
            _ = try await HTTPUpstream().send(
                HTTPRequest(method: .post, target: "/events", body: Array("{}".utf8)), to: "127.0.0.1:\(plain.port)",
                setting: [])
        }
    }

    @Test func anUpstreamThatHangsUpInsideItsAnswerFails() async throws {
        let upstream = RawUpstream(answer: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
        do {
            _ = try await HTTPUpstream().send(HTTPRequest(method: .get, target: "/"), to: "127.0.0.1:\(upstream.port)", setting: [])
            Issue.record("an answer cut short was taken whole")
        } catch {
            guard case .failed(_, let reason) = error else {
                Issue.record("failed expected, got \(error)")
                return
            }
            #expect(reason.contains("inside the answer's body"), "\(reason)")
        }
    }

    @Test func anUpstreamThatNeverAnswersFailsAtTheReadTimeout() async throws {
        let upstream = RawUpstream(answer: nil, hold: .seconds(30))
        let client = HTTPUpstream(readTimeout: .milliseconds(200))
        do {
            _ = try await client.send(HTTPRequest(method: .get, target: "/"), to: "127.0.0.1:\(upstream.port)", setting: [])
            Issue.record("an answer came from an upstream that sent none")
        } catch {
            guard case .failed(_, let reason) = error else {
                Issue.record("failed expected, got \(error)")
                return
            }
            #expect(reason.contains("no answer within"), "\(reason)")
        }
    }

    @Test func aPortNobodyListensOnIsUnreachable() async throws {
        // A port that was free a moment ago: bound, then closed.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        close(fd)
        let port = Int(UInt16(bigEndian: address.sin_port))
        await #expect(throws: HTTPUpstreamError.self) {
            _ = try await HTTPUpstream().send(HTTPRequest(method: .get, target: "/"), to: "127.0.0.1:\(port)", setting: [])
        }
        do {
            _ = try await HTTPUpstream().send(HTTPRequest(method: .get, target: "/"), to: "127.0.0.1:\(port)", setting: [])
        } catch {
            guard case .unreachable = error else {
                Issue.record("unreachable expected, got \(error)")
                return
            }
        }
    }
}
