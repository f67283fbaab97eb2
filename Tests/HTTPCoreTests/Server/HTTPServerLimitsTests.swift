import HTTPCore
import Testing
import TestSupport

/// Each limit answers with its status and closes the connection; the server keeps serving others.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct HTTPServerLimitsTests {
    static let limits = HTTPLimits(maxRequestLineBytes: 1024, maxHeaderBytes: 2048, maxHeaderCount: 10, maxBodyBytes: 4096)

    static let cases: [(name: String, request: String, status: Int)] = [
        ("request line over the limit", "GET /\(String(repeating: "a", count: 2000)) HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        ("header section over the limit", "GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 3000))\r\n\r\n", 431),
        ("too many header fields", "GET /hello HTTP/1.1\r\nHost: x\r\n" + (0..<11).map { "X-\($0): v\r\n" }.joined() + "\r\n", 431),
        ("declared body over the limit", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n", 413),
        ("chunked body over the limit", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2000\r\n", 413),
        ("malformed request line", "GET/hello HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("unsupported transfer coding", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("Content-Length with Transfer-Encoding", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("two different Content-Lengths", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
        ("invalid byte in a field name", "GET /hello HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n", 400),
        ("control byte in a field value", "GET /hello HTTP/1.1\r\nHost: x\r\nX: a\u{1}b\r\n\r\n", 400),
        ("obsolete line folding", "GET /hello HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n", 400),
        ("unsupported version", "GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        ("unsupported expectation", "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: magic\r\nContent-Length: 1\r\n\r\nx", 417),
    ]

    @Test(arguments: cases)
    func limitAnswersWithItsStatusAndCloses(name: String, request: String, status: Int) async throws {
        let server = try TestServer(limits: Self.limits)
        let client = try server.client()
        try client.send(request)
        let response = try await client.readResponse()
        #expect(response.status == status, "\(name)")
        #expect(response.header("Connection") == "close", "\(name)")
        #expect(response.header("Content-Type") == "application/problem+json", "\(name)")
        #expect(await client.waitForClose(), "\(name)")

        let next = try server.client()
        try next.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await next.readResponse().status == 200, "\(name): the server keeps serving")
        await server.stop()
    }

    @Test func oversizedBodyIsRefusedBeforeItIsSent() async throws {
        let server = try TestServer(limits: Self.limits)
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\nExpect: 100-continue\r\n\r\n")
        let response = try await client.readResponse()
        #expect(response.status == 413)  // no 100 Continue first, and no body was needed
        await server.stop()
    }

    @Test func connectionsPastTheLimitGet503() async throws {
        let server = try TestServer(maxConnections: 2)
        let first = try server.client()
        let second = try server.client()
        #expect(await server.waitForOpenConnections(2))
        let third = try server.client()
        let refused = try await third.readResponse()
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(await third.waitForClose())
        try first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await first.readResponse().status == 200)
        _ = second
        await server.stop()
    }
}
