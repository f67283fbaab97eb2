import Foundation
import HTTPCore
import Logging
import Testing
import TestSupport
@testable import ViewHost
import ViewHostLocking
import ViewModelCore

/// A session route's handler runs once per request, after its session is found: in memory, loaded from the durable
/// store first, or not at all when another node owns the session and answers. (A session not in memory was once
/// found by throwing from inside the handler, which then ran again with the loaded copy: every handler had to be
/// safe to run twice.)
@Suite(.timeLimit(.minutes(TestDeadline.minutes(3))))
struct SessionResolverTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-resolver-\(UUID().uuidString)").path

    /// A `GET` of `session`'s chat, as the router hands it to a session route.
    static func request(_ session: TestSession) -> (HTTPRequest, HTTPRequestContext) {
        var headers = HTTPHeaders()
        headers.add("Authorization", "Bearer \(session.token)")
        var parameters = RouteParameters()
        parameters.append(name: "id", value: session.id)
        parameters.append(name: "feature", value: "chat")
        return (
            HTTPRequest(method: .get, target: session.path("chat"), headers: headers),
            HTTPRequestContext(requestID: "r1", parameters: parameters, logger: Logger(label: "test"))
        )
    }

    /// Answers `request` through `resolver` with a handler that counts its runs and answers with the version of the
    /// session it was given.
    static func answer(
        _ request: HTTPRequest, _ context: HTTPRequestContext, resolver: SessionResolver, runs: Locked<Int>
    ) async throws -> HTTPResponse {
        try await resolver.respond(to: request, context: context) { _, _, session, _ in
            runs.withLock { $0 += 1 }
            return .response(HTTPResponse(contentType: "text/plain", bytes: Array("chat \(session.version(of: "chat") ?? 0)".utf8)))
        }.response()
    }

    @Test func aSessionLoadedFromTheStoreIsHandledOnce() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = try await TestApp.run(storeDirectory: directory) { app in
            let session = try await app.createSession()
            app.advance(by: .seconds(1))  // the chat's list loads
            try await app.send(session, "chat", #"{"type":"openChat","contact":"John"}"#)
            return session
        }
        try await TestApp.run(storeDirectory: directory) { app in
            let registry = try #require(app.app?.registry)
            let (request, context) = Self.request(session)
            guard case .load = try registry.resolve(request, id: session.id) else {
                Issue.record("a session of the last run is in memory before it is asked for")
                return
            }
            let runs = Locked(0)
            let response = try await Self.answer(request, context, resolver: SessionResolver(registry: registry), runs: runs)
            #expect(response.status == .ok)
            #expect(runs.withLock { $0 } == 1)
            // Now in memory: handled at once, once.
            guard case .here = try registry.resolve(request, id: session.id) else {
                Issue.record("the loaded session is not in memory")
                return
            }
            _ = try await Self.answer(request, context, resolver: SessionResolver(registry: registry), runs: runs)
            #expect(runs.withLock { $0 } == 2)
        }
    }

    /// On two nodes sharing PostgreSQL: a request on node b for a session node a owns goes to a, whose answer is
    /// relayed, and b's handler never runs; once a is gone, b takes the session over and its handler runs once.
    @Test func aSessionAnotherNodeOwnsIsAnsweredThereAndTakenOverOnceItIsGone() async throws {
        let postgres = try await PostgresServer()
        let a = try TestApp(node: ClusterNode(name: "a", databaseURL: postgres.url))
        let session = try await a.createSession(body: #"{"features":["chat"]}"#)
        try await TestApp.run(node: ClusterNode(name: "b", databaseURL: postgres.url)) { b in
            let registry = try #require(b.app?.registry)
            let resolver = SessionResolver(registry: registry)
            let (request, context) = Self.request(session)
            let runs = Locked(0)
            let relayed = try await Self.answer(request, context, resolver: resolver, runs: runs)
            #expect(relayed.status == .ok)
            #expect(relayed.headers[.contentType] == "application/json", "a's snapshot, relayed")
            #expect(runs.withLock { $0 } == 0, "b's handler ran for a's session")
            await a.stop()
            let taken = try await Self.answer(request, context, resolver: resolver, runs: runs)
            #expect(taken.status == .ok)
            guard case .bytes(let body) = taken.body else {
                Issue.record("b answered with no body of its own")
                return
            }
            #expect(String(decoding: body, as: UTF8.self).hasPrefix("chat "), "answered by b's handler")
            #expect(runs.withLock { $0 } == 1)
        }
        await postgres.stop()
    }
}
