import Foundation
import HTTPCore
import Synchronization
import Testing
import TestSupport

/// gzip over real connections: negotiation, `Vary`, thresholds, HEAD, streams flushed per write, and gzip
/// request bodies with a limit. Every gzip the server sends is read back with zlib's own gunzip (`gzread`).
@Suite struct HTTPCompressionTests {
    static let json = Array(("{\"items\":[" + (0..<200).map { "{\"n\":\($0),\"text\":\"hello\"}" }.joined(separator: ",") + "]}").utf8)

    static func routes(_ router: inout Router) {
        router.get("/json") { _, _ in
            HTTPResponse(contentType: "application/json", bytes: json, headers: [.etag: "\"7\""])
        }
        router.get("/small") { _, _ in HTTPResponse(contentType: "application/json", bytes: Array("{}".utf8)) }
        router.get("/png") { _, _ in HTTPResponse(contentType: "image/png", bytes: json) }
        TestServer.standardRoutes(&router)
    }

    @Test func acceptedGzipIsSentWithVaryAndAWeakTag() async throws {
        let server = try TestServer(routes: Self.routes)
        let response = try await get(server, "/json", ["Accept-Encoding": "gzip, deflate, br"])
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(response.header("Vary") == "Accept-Encoding")
        #expect(response.header("ETag") == "W/\"7\"")
        #expect(response.body.count < Self.json.count / 3)
        #expect(try ZlibReference.gunzip(response.body) == Self.json)
        await server.stop()
    }

    @Test(arguments: [nil, "gzip;q=0", "identity", "br", "*;q=0, identity"])
    func otherwiseTheBodyIsPlainButStillVaries(acceptEncoding: String?) async throws {
        let server = try TestServer(routes: Self.routes)
        let headers = acceptEncoding.map { ["Accept-Encoding": $0] } ?? [:]
        let response = try await get(server, "/json", headers)
        #expect(response.header("Content-Encoding") == nil)
        #expect(response.header("Vary") == "Accept-Encoding")
        #expect(response.header("ETag") == "\"7\"")
        #expect(response.body == Self.json)
        await server.stop()
    }

    @Test(arguments: ["/small", "/png"])
    func smallOrIncompressibleBodiesAreNeverGzipped(path: String) async throws {
        let server = try TestServer(routes: Self.routes)
        let response = try await get(server, path, ["Accept-Encoding": "gzip"])
        #expect(response.header("Content-Encoding") == nil)
        #expect(response.header("Vary") == nil)
        await server.stop()
    }

    @Test func headIsNeverGzipped() async throws {
        let server = try TestServer(routes: Self.routes)
        let client = try server.client()
        try client.send("HEAD /json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
        let response = try await client.readResponse(headRequest: true)
        #expect(response.status == 200)
        #expect(response.header("Content-Encoding") == nil)
        #expect(response.header("Content-Length") == "\(Self.json.count)")
        await server.stop()
    }

    @Test func disabledCompressionSendsPlain() async throws {
        let server = try TestServer(compression: HTTPCompressionSettings(isEnabled: false), routes: Self.routes)
        let response = try await get(server, "/json", ["Accept-Encoding": "gzip"])
        #expect(response.header("Content-Encoding") == nil)
        #expect(response.header("Vary") == nil)
        await server.stop()
    }

    /// Each write of a stream is flushed (Z_SYNC_FLUSH): the first event inflates before the second is even
    /// produced (the producer waits for the test's go-ahead, so no timing is involved), and the whole body is one
    /// valid gzip stream.
    @Test func streamsAreFlushedPerWrite() async throws {
        let (goAhead, release) = AsyncStream<Void>.makeStream()
        let server = try TestServer { router in
            router.get("/events") { _, _ in
                HTTPResponse(
                    headers: [.contentType: "text/event-stream"],
                    body: .stream(
                        HTTPBodyStream { writer in
                            try await writer.write(Array("data: one\n\n".utf8))
                            for await _ in goAhead { break }
                            try await writer.write(Array("data: two\n\n".utf8))
                        }))
            }
        }
        let client = try server.client()
        try client.send("GET /events HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
        var firstEvent = ""
        let deadline = TestDeadline.after(.seconds(60))
        while firstEvent != "data: one\n\n", ContinuousClock.now < deadline {
            _ = try? await client.readResponse(timeout: .milliseconds(50))  // only fills: the body is not complete
            let received = client.pendingBytes
            if let headEnd = Self.headEnd(received) {
                let body = Self.dechunk(Array(received[headEnd...]))
                firstEvent = String(decoding: ZlibReference.inflateAvailable(body).output, as: UTF8.self)
            }
        }
        #expect(firstEvent == "data: one\n\n")
        release.yield()
        release.finish()
        let response = try await client.readResponse()
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(try ZlibReference.gunzip(response.body) == Array("data: one\n\ndata: two\n\n".utf8))
        await server.stop()
    }

    @Test func gzipRequestBodyIsInflated() async throws {
        let server = try TestServer(routes: Self.routes)
        let plain = Array(String(repeating: "inflate me ", count: 500).utf8)
        let response = try await post(server, gzipped: try ZlibReference.gzip(plain), coding: "gzip")
        #expect(response.status == 200)
        #expect(response.body == plain)
        await server.stop()
    }

    @Test func zipBombIs413WithoutInflatingIt() async throws {
        let server = try TestServer(limits: HTTPLimits(maxBodyBytes: 64 * 1024), routes: Self.routes)
        let bomb = Gzip.compress([UInt8](repeating: 0, count: 50 * 1024 * 1024))  // 50 MiB of zeros, ~50 KiB
        #expect(bomb.count < 64 * 1024)
        let response = try await post(server, gzipped: bomb, coding: "gzip")
        #expect(response.status == 413)
        #expect(response.header("Content-Type") == "application/problem+json")
        await server.stop()
    }

    @Test func corruptGzipIs400AndOtherCodingsAre415() async throws {
        let server = try TestServer(routes: Self.routes)
        var corrupt = try ZlibReference.gzip(Array("hello hello hello".utf8))
        corrupt[corrupt.count / 2] ^= 0xFF
        #expect(try await post(server, gzipped: corrupt, coding: "gzip").status == 400)
        let other = try await post(server, gzipped: Array("abc".utf8), coding: "br")
        #expect(other.status == 415)
        #expect(other.header("Accept-Encoding") == "gzip")
        await server.stop()
    }

    private func get(_ server: TestServer, _ path: String, _ headers: [String: String]) async throws -> TestResponse {
        let client = try server.client()
        let fields = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\(fields)\r\n")
        return try await client.readResponse()
    }

    private func post(_ server: TestServer, gzipped: [UInt8], coding: String) async throws -> TestResponse {
        let client = try server.client()
        try client.send(
            Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Encoding: \(coding)\r\nContent-Length: \(gzipped.count)\r\n\r\n".utf8)
                + gzipped)
        return try await client.readResponse()
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index..<index + 4] == [13, 10, 13, 10] { return index + 4 }
        return nil
    }

    /// The data of the complete chunks at the start of `bytes`.
    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while let lineEnd = (index..<max(index, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) {
            guard let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16), size > 0,
                lineEnd + 2 + size <= bytes.count
            else { break }
            output += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
        }
        return output
    }
}
