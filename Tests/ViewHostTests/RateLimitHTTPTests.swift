import ViewHost
import Foundation
import HTTPCore
import Testing
import TestSupport

/// `limits.sessionsPerMinutePerClient` and `limits.eventsPerSecondPerSession`: over the rate, `429` problem+json
/// with `Retry-After`, nothing changed, and other sessions unaffected. The rates are set so that no token comes
/// back during a test (one a minute), so nothing here depends on how fast the machine is.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct RateLimitHTTPTests {
    @Test func sessionCreationOverTheClientRateIs429WithRetryAfter() async throws {
        try await TestApp.run({ $0.rateLimits.sessionsPerMinutePerClient = 2 }) { app in
            _ = try await app.createQuietSession()
            _ = try await app.createQuietSession()
            let refused = try await app.request("POST", "/v1/sessions")
            #expect(refused.status == 429)
            #expect(refused.header("Content-Type") == "application/problem+json")
            let retryAfter = try #require(refused.header("Retry-After").flatMap { Int($0) })
            #expect((1...30).contains(retryAfter), "one token of 2 a minute comes back within 30 s: \(retryAfter)")
            #expect(try refused.json["status"].int == 429)
            #expect(try refused.json["detail"].string?.contains("too many sessions") == true)
        }
    }

    @Test func eventsOverTheSessionRateAre429AndOtherSessionsGoOn() async throws {
        try await TestApp.run({ $0.rateLimits.eventsPerSecondPerSession = 3 }) { app in
            let busy = try await app.createQuietSession()
            let other = try await app.createQuietSession()
            let batch = try await app.post(busy, "chat", #"[{"type":"appResignActive"},{"type":"appResignActive"}]"#)
            #expect(batch.status != 429, "\(batch)")
            let one = try await app.post(busy, "chat", #"{"type":"appResignActive"}"#)
            #expect(one.status != 429, "\(one)")
            let refused = try await app.post(busy, "chat", #"{"type":"appResignActive"}"#)
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After") != nil)
            #expect(refused.header("Content-Type") == "application/problem+json")
            let elsewhere = try await app.post(other, "chat", #"{"type":"appResignActive"}"#)
            #expect(elsewhere.status != 429, "another session has its own allowance")
        }
    }

    @Test func zeroTurnsALimitOff() async throws {
        try await TestApp.run({ $0.rateLimits.sessionsPerMinutePerClient = 0 }) { app in
            for _ in 0..<5 { _ = try await app.createQuietSession() }
        }
    }
}
