import HTTPCore
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct HTTPServerTests {
    @Test func getAnswersWithDateRequestIDAndLength() async throws {
        let server = try TestServer()
        let client = try server.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try await client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "hello")
        #expect(response.header("Content-Length") == "5")
        #expect(response.header("Date")?.hasSuffix(" GMT") == true)
        #expect(response.header("X-Request-Id")?.count == 15)
        #expect(response.header("Connection") == nil)
        await server.stop()
    }

    @Test func requestIDIsEchoedWhenTheClientSendsOne() async throws {
        let server = try TestServer()
        let client = try server.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc-123\r\n\r\n")
        #expect(try await client.readResponse().header("X-Request-Id") == "abc-123")
        try client.send("GET /nowhere HTTP/1.1\r\nHost: x\r\nX-Request-Id: def-456\r\n\r\n")
        let notFound = try await client.readResponse()
        #expect(notFound.status == 404)
        #expect(notFound.header("X-Request-Id") == "def-456")
        #expect(notFound.header("Content-Type") == "application/problem+json")
        await server.stop()
    }

    @Test func pipelinedRequestsInOneWriteAreAnsweredInOrder() async throws {
        let server = try TestServer()
        let client = try server.client()
        try client.send(
            "GET /items/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /slow/50 HTTP/1.1\r\nHost: x\r\n\r\nGET /items/3 HTTP/1.1\r\nHost: x\r\n\r\n")
        var bodies: [String] = []
        for _ in 0..<3 { bodies.append(try await client.readResponse().text) }
        #expect(bodies == ["item 1", "slow 50", "item 3"])
        await server.stop()
    }

    @Test func keepAliveIsTheDefaultForHTTP11() async throws {
        let server = try TestServer()
        let client = try server.client()
        for index in 0..<5 {
            try client.send("GET /items/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "item \(index)")
        }
        await server.stop()
    }

    @Test func connectionCloseIsHonouredAndAnswered() async throws {
        let server = try TestServer()
        let client = try server.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let response = try await client.readResponse()
        #expect(response.header("Connection") == "close")
        #expect(await client.waitForClose())
        await server.stop()
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() async throws {
        let server = try TestServer()
        let plain = try server.client()
        try plain.send("GET /hello HTTP/1.0\r\n\r\n")
        #expect(try await plain.readResponse().header("Connection") == "close")
        #expect(await plain.waitForClose())

        let keepAlive = try server.client()
        try keepAlive.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try await keepAlive.readResponse().header("Connection") == "keep-alive")
        try keepAlive.send("GET /items/2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try await keepAlive.readResponse().text == "item 2")
        await server.stop()
    }

    @Test func contentLengthBodyIsEchoed() async throws {
        let server = try TestServer()
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello")
        try client.send(" world")
        #expect(try await client.readResponse().text == "hello world")
        await server.stop()
    }

    @Test func chunkedBodyWithTrailersIsDecoded() async throws {
        let server = try TestServer()
        let client = try server.client()
        try client.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n")
        let response = try await client.readResponse()
        #expect(response.text == "hello world")
        #expect(response.header("X-Got-Trailer") == "yes")
        await server.stop()
    }

    @Test func expect100ContinueGetsAnInterimResponseBeforeTheBody() async throws {
        let server = try TestServer()
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        let interim = try await client.readResponse()
        #expect(interim.status == 100)
        try client.send("ping")
        let final = try await client.readResponse()
        #expect(final.status == 200)
        #expect(final.text == "ping")
        await server.stop()
    }

    @Test func headAnswersWithTheLengthButNoBody() async throws {
        let server = try TestServer()
        let client = try server.client()
        try client.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /items/7 HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try await client.readResponse(headRequest: true)
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "5")
        #expect(try await client.readResponse().text == "item 7")  // no stray body bytes in between
        await server.stop()
    }

    @Test func methodNotAllowedListsAllowedMethods() async throws {
        let server = try TestServer()
        let client = try server.client()
        try client.send("DELETE /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try await client.readResponse()
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, OPTIONS")
        try client.send("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")
        let options = try await client.readResponse()
        #expect(options.status == 204)
        #expect(options.header("Allow")?.contains("POST") == true)
        await server.stop()
    }

    @Test func streamedResponseIsChunked() async throws {
        let server = try TestServer()
        let client = try server.client()
        try client.send("GET /stream/3 HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try await client.readResponse()
        #expect(response.header("Transfer-Encoding") == "chunked")
        #expect(response.text == "part 0\npart 1\npart 2\n")
        try client.send("GET /items/9 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().text == "item 9")
        await server.stop()
    }

    @Test func streamedResponseToHTTP10IsCloseDelimited() async throws {
        let server = try TestServer()
        let client = try server.client()
        try client.send("GET /stream/2 HTTP/1.0\r\n\r\n")
        let raw = String(decoding: try await client.readUntilClosed(), as: UTF8.self)
        #expect(raw.hasSuffix("\r\n\r\npart 0\npart 1\n"))
        #expect(!raw.contains("Transfer-Encoding"))
        await server.stop()
    }

    /// However the kernel spreads connections over the loops' sockets, each loop ends up with its share, so no
    /// loop serves most of a client's keep-alive connections while another idles.
    @Test func connectionsAreSpreadEvenlyOverTheLoops() async throws {
        let server = try TestServer(eventLoops: 2)
        // All connected before any is served, as a load generator does: one loop's accept batch could take all.
        var clients: [HTTPTestClient] = []
        for _ in 0..<40 { clients.append(try server.client()) }
        for (index, client) in clients.enumerated() {
            try client.send("GET /items/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "item \(index)")
        }
        let perLoop = server.server.openConnectionsPerLoop
        #expect(perLoop.reduce(0, +) == 40)
        #expect(perLoop.max()! - perLoop.min()! <= 1, "connections per loop: \(perLoop)")
        clients.removeAll()
        #expect(await server.waitForOpenConnections(0))
        await server.stop()
    }

    @Test func aThousandConcurrentConnectionsAreAllAnswered() async throws {
        let server = try TestServer()
        var clients: [HTTPTestClient] = []
        for _ in 0..<1000 { clients.append(try server.client()) }
        for (index, client) in clients.enumerated() {
            try client.send("GET /items/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        for (index, client) in clients.enumerated() {
            #expect(try await client.readResponse().text == "item \(index)")
        }
        #expect(await server.waitForOpenConnections(1000))
        clients.removeAll()
        #expect(await server.waitForOpenConnections(0))
        await server.stop()
    }
}
