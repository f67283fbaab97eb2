import Foundation
import HTTPCore
import Testing
import TestSupport
import ViewHost
import ChatAPI
import LoginAPI
import PersonAPI
import WeatherAPI
import ViewHostAPI

/// gzip on the app's routes: snapshots are compressed once per version and still revalidate; the event stream
/// is gzipped and flushed per event.
@Suite struct CompressionHTTPTests {
    @Test func snapshotIsGzippedOncePerVersionAndStillRevalidates() async throws {
        try await TestApp.run({ $0.http.compression.minimumBytes = 256 }) { app in
            let session = try await app.createQuietSession()
            app.advance(by: .seconds(1))  // John's chat arrives
            let gzip = [("Accept-Encoding", "gzip")]
            let first = try await app.request("GET", session.path("chat"), token: session.token, headers: gzip)
            let second = try await app.request("GET", session.path("chat"), token: session.token, headers: gzip)
            let plain = try await app.request("GET", session.path("chat"), token: session.token)
            #expect(first.status == 200)
            #expect(first.header("Content-Encoding") == "gzip")
            #expect(first.header("Vary") == "Accept-Encoding")
            #expect(first.body == second.body)
            #expect(try Gzip.decompress(first.body, limit: 1 << 20) == plain.body)
            let tag = try #require(first.header("ETag"))
            #expect(tag == "W/" + (plain.header("ETag") ?? ""))
            let revalidated = try await app.request(
                "GET", session.path("chat"), token: session.token, headers: gzip + [("If-None-Match", tag)])
            #expect(revalidated.status == 304)
            #expect(revalidated.header("Vary") == "Accept-Encoding", "a 304 repeats the Vary of its 200 (RFC 9110 §15.4.5)")
        }
    }

    /// A 304 carries `Vary: Accept-Encoding` exactly when the 200 it validates would: not for a body under the
    /// threshold, nor with compression off.
    @Test(arguments: [(256, true, true), (1 << 20, true, false), (256, false, false)])
    func notModifiedVariesLikeItsOK(threshold: Int, enabled: Bool, varies: Bool) async throws {
        try await TestApp.run({
            $0.http.compression.minimumBytes = threshold
            $0.http.compression.isEnabled = enabled
        }) { app in
            let session = try await app.createQuietSession()
            app.advance(by: .seconds(1))
            let ok = try await app.request("GET", session.path("chat"), token: session.token)
            let tag = try #require(ok.header("ETag"))
            let notModified = try await app.request(
                "GET", session.path("chat"), token: session.token, headers: [("If-None-Match", tag)])
            #expect(notModified.status == 304)
            #expect(ok.header("Vary") == (varies ? "Accept-Encoding" : nil))
            #expect(notModified.header("Vary") == ok.header("Vary"))
            let page = try await app.request("GET", "/")
            let pageAgain = try await app.request("GET", "/", headers: [("If-None-Match", page.header("ETag") ?? "")])
            #expect(pageAgain.status == 304)
            #expect(pageAgain.header("Vary") == page.header("Vary"))
        }
    }

    @Test func gzipEventBodiesAreAccepted() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let body = Gzip.compress(Array(#"{"type":"addChat"}"#.utf8))
            let client = try HTTPTestClient(port: app.port)
            try client.send(
                Array(
                    ("POST \(session.path("chat/events")) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(session.token)\r\n"
                        + "Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\n\r\n").utf8)
                    + body)
            #expect(try await client.readResponse().status == 202)
        }
    }
}
