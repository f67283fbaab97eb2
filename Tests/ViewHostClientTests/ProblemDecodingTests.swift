import Foundation
import TestSupport
import Testing
import LoginAPI
import PersonAPI
import ChatAPI
import WeatherAPI
import ViewHostAPI

@testable import ViewHostClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every problem status the server answers comes back as one ``ViewHostError`` with its status, title, detail and,
/// where the server lists them, the allowed event types.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ProblemDecodingTests {
    /// Runs `body` and returns the error it threw (failing the test if it threw none, or another type).
    private func failure(_ body: () async throws -> Void) async -> ViewHostError? {
        do {
            try await body()
            Issue.record("no error")
            return nil
        } catch let error as ViewHostError {
            return error
        } catch {
            Issue.record("not a ViewHostError: \(error)")
            return nil
        }
    }

    @Test func refusalsOfTheState409And422CarryTheAllowedTypes() async throws {
        let server = try await TestServer.start()
        let session = try await TestServer.client(port: server.port).createSession(features: ["login"])

        let disabled = try #require(await failure { try await session.send(LoginIntent.login) })
        #expect(disabled.kind == .problem)
        #expect(disabled.status == 409)
        #expect(disabled.title == "Conflict")
        #expect(!disabled.detail.isEmpty)
        #expect(!disabled.allowed.isEmpty && !disabled.allowed.contains("login"), "\(disabled)")

        let unknown = try #require(await failure { try await session.send(feature: "login", event: ["type": "fly"]) })
        #expect(unknown.status == 422)
        #expect(unknown.title == "Unprocessable Content")
        #expect(unknown.allowed == LoginIntent.types)
        #expect(unknown.fieldErrors == [.init(field: "type", message: "must be one of the allowed types")])
        #expect(unknown.description.hasPrefix("422 Unprocessable Content: Unknown event type 'fly'"))

        let missing = try #require(
            await failure { try await session.send(feature: "login", event: ["type": "setUsername"]) })
        #expect(missing.status == 422)
        #expect(missing.fieldErrors.map(\.field) == ["value"])
    }

    @Test func sessionAndFeatureProblems() async throws {
        let server = try await TestServer.start()
        let client = TestServer.client(port: server.port)
        let session = try await client.createSession(features: ["person"])

        let noFeature = try #require(await failure { _ = try await session.snapshot(feature: "nope") })
        #expect(noFeature.status == 404)
        #expect(noFeature.detail == "This session has no feature 'nope'.")

        let wrongToken = try #require(await failure { _ = try await client.session(id: session.id, token: "x").info() })
        #expect(wrongToken.status == 404)
        #expect(wrongToken.title == "Not Found")

        let noToken = try #require(await failure { _ = try await client.session(id: session.id, token: "").info() })
        #expect(noToken.status == 401, "\(noToken)")

        let badFilter = try #require(
            await failure {
                for try await _ in session.changes(features: ["nope"]) {}
            })
        #expect(badFilter.status == 400)
        #expect(badFilter.fieldErrors.map(\.field) == ["features"])

        let badBody = try #require(await failure { _ = try await client.createSession(features: ["nope"]) })
        #expect(badBody.status == 422)
    }

    @Test func limits410And413() async throws {
        let server = try await TestServer.start(environment: [
            "VIEWHOST_SESSIONS_IDLE_TTL_SECONDS": "1", "VIEWHOST_LIMITS_MAX_BODY_BYTES": "512",
        ])
        let client = TestServer.client(port: server.port, sendAttempts: 1)
        let session = try await client.createSession(features: ["person"])

        let large = try #require(
            await failure {
                try await session.send(
                    PersonIntent.setPerson(
                        firstName: String(repeating: "a", count: 600), lastName: "b", birthdate: "2000-01-01"))
            })
        #expect(large.status == 413)

        try await Task.sleep(for: .milliseconds(2500))
        let expired = try #require(await failure { _ = try await session.snapshot(PersonSnapshot.self) })
        #expect(expired.status == 410)
        #expect(expired.title == "Gone")
    }

    @Test func aFullServer503CarriesRetryAfter() async throws {
        let server = try await TestServer.start(environment: ["VIEWHOST_SESSIONS_MAX": "1"])
        let client = TestServer.client(port: server.port, sendAttempts: 1)
        _ = try await client.createSession(features: ["person"])
        let full = try #require(await failure { _ = try await client.createSession() })
        #expect(full.status == 503)
        #expect(full.title == "Service Unavailable")
        #expect(full.retryAfter == 30)
    }

    @Test func problemsTheServerRarelySendsDecodeTheSameWay() throws {
        let body = Data(
            #"{"detail":"This session already has 8 open streams; close one first.","status":429,"title":"Too Many Requests","type":"about:blank"}"#
                .utf8)
        let response = HTTPURLResponse(
            url: URL(string: "http://127.0.0.1/")!, statusCode: 429, httpVersion: "HTTP/1.1",
            headerFields: ["Retry-After": "5"])
        let error = ViewHostError.problem(status: 429, body: body, headers: response)
        #expect(error.status == 429)
        #expect(error.title == "Too Many Requests")
        #expect(error.retryAfter == 5)
        #expect(error.isRetryable)

        let notProblem = ViewHostError.problem(status: 502, body: Data("<html>".utf8), headers: nil)
        #expect(notProblem.status == 502)
        #expect(notProblem.detail == "")
        #expect(notProblem.isRetryable, "a proxy's 502: no server behind it now (a node switched), another try may reach one")
        let notFound = ViewHostError.problem(status: 404, body: Data("<html>".utf8), headers: nil)
        #expect(!notFound.isRetryable)
    }

    @Test func unreachableServerIsATransportError() async throws {
        let proxy = try TCPProxy(upstreamPort: 1)  // nothing listens on port 1: every connection is cut at once
        defer { proxy.close() }
        let client = TestServer.client(port: proxy.port, sendAttempts: 2)
        let error = try #require(await failure { _ = try await client.createSession() })
        #expect(error.kind == .transport)
        #expect(error.status == nil)
    }
}
