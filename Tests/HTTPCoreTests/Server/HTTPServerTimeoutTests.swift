import HTTPCore
import Testing
import TestSupport

/// Timeouts over real loopback with short configured durations; the tests wait on the socket (with a deadline),
/// never on a sleep.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct HTTPServerTimeoutTests {
    static let short = HTTPTimeouts(
        headerRead: .milliseconds(300), bodyRead: .milliseconds(300), idle: .milliseconds(300),
        write: .milliseconds(300), drain: .seconds(2), lingeringClose: .milliseconds(300))

    @Test func slowHeaderClientGets408AndIsClosed() async throws {
        let server = try TestServer(timeouts: Self.short)
        let client = try server.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n")  // the head never ends
        let response = try await client.readResponse()
        #expect(response.status == 408)
        #expect(response.header("Connection") == "close")
        #expect(await client.waitForClose())
        await server.stop()
    }

    @Test func slowBodyClientGets408() async throws {
        let server = try TestServer(timeouts: Self.short)
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        let response = try await client.readResponse()
        #expect(response.status == 408)
        await server.stop()
    }

    @Test func idleKeepAliveConnectionIsClosedSilently() async throws {
        let server = try TestServer(timeouts: Self.short)
        let client = try server.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().status == 200)
        let rest = try await client.readUntilClosed()
        #expect(rest.isEmpty)
        #expect(await server.waitForOpenConnections(0))
        await server.stop()
    }

    @Test func clientThatNeverReadsIsClosedAfterTheWriteTimeout() async throws {
        let server = try TestServer(timeouts: Self.short)
        let client = try server.client()
        client.setReceiveBufferSize(4096)
        try client.send("GET /large/16777216 HTTP/1.1\r\nHost: x\r\n\r\n")  // 16 MiB, not read for now
        #expect(await server.waitForClosedConnections(1))
        #expect(server.server.acceptedConnectionCount == 1)
        let received = try await client.readUntilClosed(timeout: .seconds(20))
        #expect(received.count < 16_777_216, "the server cut the response short instead of sending it all")
        await server.stop()
    }

    /// A response still being sent is not an idle connection: a client that pauses reading longer than the
    /// idle timeout (but not the write timeout) gets the whole body. The idle clock used to start when the
    /// response was queued, and closed the connection mid-body. 64 MiB: more than the kernel's socket buffers
    /// take, so most of it is still the server's to send during the pause.
    @Test func idleTimeoutWaitsUntilTheResponseIsSent() async throws {
        let server = try TestServer(
            // The write timeout is generous: on a busy machine the reader's pause can last far longer than its second.
            timeouts: HTTPTimeouts(
                idle: .milliseconds(300), write: TestDeadline.scaled(.seconds(120)), lingeringClose: .milliseconds(100)))
        let client = try server.client()
        try client.send("GET /large/67108864 HTTP/1.1\r\nHost: x\r\n\r\n")
        try await Task.sleep(for: .seconds(1))  // the slow reader's pause: past the idle timeout, on purpose
        let response = try await client.readResponse(timeout: .seconds(20))
        #expect(response.body.count == 67_108_864)
        await server.stop()
    }

    @Test func clientResetMidResponseLeavesTheServerServing() async throws {
        let server = try TestServer(timeouts: HTTPTimeouts(lingeringClose: .milliseconds(100)))
        for _ in 0..<20 {
            let client = try server.client()
            client.setReceiveBufferSize(4096)
            try client.send("GET /large/8388608 HTTP/1.1\r\nHost: x\r\n\r\n")
            try client.send("GET /stream/100000 HTTP/1.1\r\nHost: x\r\n\r\n")
            client.closeWithReset()
        }
        #expect(await server.waitForOpenConnections(0, timeout: .seconds(10)))
        let client = try server.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().status == 200)
        await server.stop()
    }

    @Test func gracefulShutdownFinishesInFlightAndClosesIdle() async throws {
        let server = try TestServer(
            timeouts: HTTPTimeouts(drain: TestDeadline.scaled(.seconds(120)), lingeringClose: .milliseconds(100)))
        let idle = try server.client()
        try idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await idle.readResponse().status == 200)
        let busy = try server.client()
        try busy.send("GET /slow/300 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await server.waitForSlowHandlers(1))  // shut down only once the request is in flight
        server.server.shutdown()
        #expect(await idle.waitForClose())
        let response = try await busy.readResponse()
        #expect(response.text == "slow 300")
        #expect(response.header("Connection") == "close")
        await server.server.waitUntilStopped()
        #expect(throws: (any Error).self) { _ = try HTTPTestClient(port: server.port) }
    }
}
