import Foundation
import Testing
import TestSupport

@testable import ViewHost

/// CORS with `cors.allowedOrigins` set is enforced on every request (issue 14, finding 4): a disallowed `Origin`
/// gets `403` problem+json before anything happens; allowed, same-origin and Origin-less requests go through.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct CORSHTTPTests {
    private static func run(_ body: (TestApp) async throws -> Void) async throws {
        try await TestApp.run({ $0.cors.allowedOrigins = ["https://app.example"] }, body)
    }

    @Test func aPlainPostFromADisallowedOriginIs403() async throws {
        try await Self.run { app in
            let response = try await app.request(
                "POST", "/v1/sessions", headers: [("Origin", "https://evil.example")], body: "{}")
            #expect(response.status == 403)
            #expect(response.header("Content-Type")?.hasPrefix("application/problem+json") == true)
            #expect(response.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func everyMethodFromADisallowedOriginIs403() async throws {
        try await Self.run { app in
            let session = try await app.createSession()
            let origin = [("Origin", "https://evil.example")]
            let requests: [(String, String, String?)] = [
                ("GET", session.path("chat"), nil), ("POST", session.path("chat/events"), #"{"type":"addChat"}"#),
                ("DELETE", session.path(), nil), ("GET", "/healthz", nil),
            ]
            for (method, path, body) in requests {
                let response = try await app.request(method, path, token: session.token, headers: origin, body: body)
                #expect(response.status == 403, "\(method) \(path)")
            }
            // Nothing was applied: the chat still has its first version, the session still exists.
            #expect(try await app.request("GET", session.path(), token: session.token).status == 200)
        }
    }

    @Test func allowedSameOriginAndOriginlessRequestsGoThrough() async throws {
        try await Self.run { app in
            let allowed = try await app.request(
                "POST", "/v1/sessions", headers: [("Origin", "https://app.example")], body: "{}")
            #expect(allowed.status == 201)
            #expect(allowed.header("Access-Control-Allow-Origin") == "https://app.example")
            // The request line's Host is 127.0.0.1 (TestApp's requests); a page served from it is same-origin.
            let same = try await app.request("POST", "/v1/sessions", headers: [("Origin", "http://127.0.0.1")], body: "{}")
            #expect(same.status == 201)
            #expect(try await app.request("POST", "/v1/sessions", body: "{}").status == 201)
        }
    }

    @Test func preflightsFromAllowedOriginsAreAnsweredAndOthersRefused() async throws {
        try await Self.run { app in
            let preflight = [("Access-Control-Request-Method", "POST")]
            let ok = try await app.request(
                "OPTIONS", "/v1/sessions", headers: preflight + [("Origin", "https://app.example")])
            #expect(ok.status == 204)
            #expect(ok.header("Access-Control-Allow-Headers")?.contains("Idempotency-Key") == true)
            let refused = try await app.request(
                "OPTIONS", "/v1/sessions", headers: preflight + [("Origin", "https://evil.example")])
            #expect(refused.status == 403)
        }
    }

    @Test func withoutAListNothingIsRefused() async throws {
        try await TestApp.run { app in
            let response = try await app.request(
                "POST", "/v1/sessions", headers: [("Origin", "https://elsewhere.example")], body: "{}")
            #expect(response.status == 201)
        }
    }

    @Test func sameOriginComparesSchemeLessOriginWithHost() {
        #expect(CORSResponder.isSameOrigin("http://127.0.0.1:8080", host: "127.0.0.1:8080"))
        #expect(CORSResponder.isSameOrigin("https://Example.COM", host: "example.com"))
        #expect(!CORSResponder.isSameOrigin("http://127.0.0.1:8081", host: "127.0.0.1:8080"))
        #expect(!CORSResponder.isSameOrigin("null", host: "127.0.0.1"))
        #expect(!CORSResponder.isSameOrigin("http://a", host: nil))
    }
}
