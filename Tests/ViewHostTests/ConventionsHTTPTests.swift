import ViewHost
import Foundation
import HTTPCore
import Testing
import TestSupport
import ChatAPI
import LoginAPI
import PersonAPI
import WeatherAPI
import ViewHostAPI

/// API.md "Conventions" checked across the app's answers: `Date`, framing and `X-Request-Id` on every answer,
/// problem documents for every error, `405` with `Allow`, and gzip on request.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ConventionsHTTPTests {
    @Test func everyAnswerCarriesDateFramingAndTheRequestID() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let tag = try #require(try await app.request("GET", session.path("chat"), token: session.token).header("ETag"))
            let requests: [(String, String, String?, [(String, String)], String?)] = [
                ("POST", "/v1/sessions", nil, [], nil),
                ("GET", session.path(), session.token, [], nil),
                ("GET", session.path("chat"), session.token, [], nil),
                ("GET", session.path("chat"), session.token, [("If-None-Match", tag)], nil),
                ("HEAD", session.path("chat"), session.token, [], nil),
                ("POST", session.path("chat/events"), session.token, [], #"{"type":"addChat"}"#),
                ("POST", session.path("chat/events"), session.token, [], #"{"type":"dance"}"#),
                ("GET", session.path("log"), session.token, [], nil),
                ("GET", session.path("chat"), nil, [], nil),
                ("GET", "/v1/nowhere", nil, [], nil),
            ]
            for (index, (method, path, token, headers, body)) in requests.enumerated() {
                let id = "e2e-\(index)"
                let response = try await app.request(
                    method, path, token: token, headers: headers + [("X-Request-Id", id)], body: body)
                #expect(response.header("Date") != nil, "\(method) \(path)")
                #expect(response.header("X-Request-Id") == id, "\(method) \(path)")
                if ![204, 304].contains(response.status) {
                    #expect(response.header("Content-Length") != nil || response.header("Transfer-Encoding") == "chunked")
                }
                if response.status >= 400 {
                    #expect(response.header("Content-Type") == "application/problem+json", "\(method) \(path)")
                }
            }
            let stream = try SSEReader(
                port: app.port, path: session.path("stream"), token: session.token, headers: [("X-Request-Id", "sse")])
            let head = try await stream.head()
            #expect(head.header("X-Request-Id") == "sse")
            #expect(head.header("Date") != nil)
        }
    }

    @Test func wrongMethodIs405WithAllow() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let put = try await app.request("PUT", session.path("chat"), token: session.token, body: "{}")
            #expect(put.status == 405)
            #expect(put.header("Allow")?.contains("GET") == true)
            #expect(put.header("Content-Type") == "application/problem+json")
            let get = try await app.request("GET", session.path("chat/events"), token: session.token)
            #expect(get.status == 405)
            #expect(get.header("Allow")?.contains("POST") == true)
        }
    }

    /// API.md: gzip for bodies at or over the configured threshold (1 KiB by default), with `Vary`.
    @Test func largeBodiesAreGzippedWhenAsked() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            app.advance(by: .milliseconds(500))
            let text = String(repeating: "All work and no play. ", count: 150)
            try await app.send(session, "chat", #"[{"type":"openChat","contact":"John"},{"type":"send","text":"\#(text)"}]"#)
            let plain = try await app.request("GET", session.path("chat"), token: session.token)
            #expect(plain.header("Content-Encoding") == nil, "no gzip unless asked")
            let response = try await app.request(
                "GET", session.path("chat"), token: session.token, headers: [("Accept-Encoding", "gzip")])
            #expect(response.header("Content-Encoding") == "gzip")
            #expect(response.header("Vary")?.contains("Accept-Encoding") == true)
            #expect(response.body.count < plain.body.count)
        }
    }
}
