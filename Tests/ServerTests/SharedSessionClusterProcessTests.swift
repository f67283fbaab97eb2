import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A shared session on two nodes of one PostgreSQL (issue 43): Bea joins through the node that does not own the
/// session and posts through it; once the owner removes her, her token answers 401 on both nodes, her stream held
/// on the other node ends, and after the owner node is killed the node that takes the session over still refuses
/// her (the removal is in the store, not only in the owner's memory).
@Suite(.serialized, .timeLimit(.minutes(TestDeadline.minutes(5))))
final class SharedSessionClusterProcessTests {
    let database: PostgresServer
    static let secret = "cluster-test-secret-0123456789"

    init() async throws {
        database = try await PostgresServer()
    }

    private func node(_ name: String) async throws -> ServerProcess {
        try await ServerProcess(
            arguments: [
                "serve", "--port", "0", "--store", "postgres", "--database-url", database.url, "--node-id", name,
                "--internal-address", "127.0.0.1:0",
            ],
            environment: ["VIEWHOST_CLUSTER_SECRET": Self.secret])
    }

    /// Waits until `node` logs that it takes forwarded requests (its internal listener is up).
    private func forwarding(_ node: ServerProcess) async throws {
        let deadline = TestDeadline.after(.seconds(20))
        while ContinuousClock.now < deadline {
            if node.standardErrorText().contains("taking forwarded requests") { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HTTPTestClient.ClientError.malformedResponse("no internal address logged: \(node.standardErrorText())")
    }

    private static func person(_ name: String) -> String {
        #"{"type":"setPerson","firstName":"\#(name)","lastName":"Cluster","birthdate":"1990-01-01"}"#
    }

    @Test func aRemovalIsSeenByEveryNodeAndSurvivesTheOwnersDeath() async throws {
        let a = try await node("a")
        let b = try await node("b")
        try await forwarding(a)
        try await forwarding(b)
        let owner = try await ProcessHTTP.createSession(a.port, features: ["person"])
        let invited = try await ProcessHTTP.request(
            a.port, "POST", "/v1/sessions/\(owner.id)/invitations", token: owner.token, body: #"{"purpose":"join"}"#)
        let code = try #require(ProcessHTTP.json(invited)?["code"] as? String)
        let joined = try await ProcessHTTP.request(b.port, "POST", "/v1/invitations/\(code)", body: #"{"name":"Bea"}"#)
        try #require(joined.status == 201, "\(joined)")
        let json = try #require(ProcessHTTP.json(joined))
        let token = try #require(json["token"] as? String)
        let beaID = try #require((json["participant"] as? [String: Any])?["id"] as? String)
        let posted = try await ProcessHTTP.request(
            b.port, "POST", "/v1/sessions/\(owner.id)/person/events", token: token, body: Self.person("Bea"))
        #expect(posted.status == 202, "through the other node, to the owner: \(posted)")

        let stream = try HTTPTestClient(port: b.port)
        try stream.send("GET /v1/sessions/\(owner.id)/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
        _ = try await stream.read(untilContaining: "event: person", timeout: TestDeadline.scaled(.seconds(30)))
        let removed = try await ProcessHTTP.request(
            b.port, "DELETE", "/v1/sessions/\(owner.id)/participants/\(beaID)", token: owner.token)
        #expect(removed.status == 204, "\(removed)")
        let end = try await stream.read(untilContaining: "event: ended", timeout: TestDeadline.scaled(.seconds(30)))
        #expect(!end.isEmpty, "her stream held on b ends")
        for port in [a.port, b.port] {
            let refused = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(owner.id)/person", token: token)
            #expect(refused.status == 401, "\(port): \(refused)")
        }

        a.send(signal: SIGKILL)
        _ = try await a.waitForExit()
        // b takes the session over (its owner is gone) for Bea's own request, the first after the death: it reads
        // the participants from the store then, not what it cached while a owned the session.
        let deadline = TestDeadline.after(.seconds(60))
        var beaAnswer = 0
        while ContinuousClock.now < deadline {
            beaAnswer =
                (try? await ProcessHTTP.request(
                    b.port, "GET", "/v1/sessions/\(owner.id)/person", token: token, timeout: .seconds(10)))?
                .status ?? 0
            if beaAnswer != 0 && beaAnswer < 500 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(beaAnswer == 401, "b let a removed participant in after taking the session over")
        let ownerAnswer = try await ProcessHTTP.request(b.port, "GET", "/v1/sessions/\(owner.id)/person", token: owner.token)
        #expect(ownerAnswer.status == 200, "b serves the session once a is gone")
        await database.stop()
    }
}
