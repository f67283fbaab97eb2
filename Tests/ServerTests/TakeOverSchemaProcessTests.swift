import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `serve --take-over` across a change of a feature's stored shape, with the test-only app
/// `schema-test-server` (Tests/Apps), whose `tally` feature is in the schema version `SCHEMA_TEST_TALLY_VERSION`
/// names: 1 a count; 2 gained a `label`, and reads 1; 3 reads nothing older than itself.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct TakeOverSchemaProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vh-takeover-schema-\(UUID())").path

    static func app() throws -> String {
        URL(fileURLWithPath: try ServerProcess.binaryPath()).deletingLastPathComponent()
            .appendingPathComponent("schema-test-server").path
    }

    /// The arguments, with an empty configuration file: `Config/viewhost.json` sets the seed features' keys.
    func arguments(port: Int, _ extra: [String] = []) throws -> [String] {
        let config = directory + ".json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: config))
        return ["serve", "--port", String(port), "--store", "sqlite", "--data-dir", directory, "--config", config]
            + extra
    }

    func start(version: Int, port: Int = 0, _ extra: [String] = []) async throws -> ServerProcess {
        try await ServerProcess(
            arguments: try arguments(port: port, extra), environment: ["SCHEMA_TEST_TALLY_VERSION": "\(version)"],
            binary: try Self.app(), name: "schema-test-server")
    }

    /// Sessions of the first shape, each with `adds` events applied: id, token and the snapshot served.
    func sessions(on port: Int, count: Int, adds: Int) async throws -> [(id: String, token: String, body: [String: Any])] {
        var made: [(String, String, [String: Any])] = []
        for _ in 0..<count {
            let (id, token) = try await ProcessHTTP.createSession(port, features: ["tally"])
            for _ in 0..<adds {
                let posted = try await ProcessHTTP.request(
                    port, "POST", "/v1/sessions/\(id)/tally/events", token: token, body: #"{"type":"add"}"#)
                #expect(posted.status == 202)
            }
            let snapshot = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(id)/tally", token: token)
            made.append((id, token, try #require(ProcessHTTP.json(snapshot))))
        }
        return made
    }

    /// A new build whose feature state gained a field takes over live: while a client reads a session, nothing is
    /// refused; the old process exits 0; every session opens in the new shape (the field has its default) with
    /// every member the old build served, and takes events again.
    @Test func aSchemaChangeIsTakenOverLive() async throws {
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: directory + ".json")
        }
        let old = try await start(version: 1)
        let port = old.port
        let before = try await sessions(on: port, count: 3, adds: 2)
        #expect(before.allSatisfy { $0.body["label"] == nil && $0.body["count"] as? Int == 2 })
        let traffic = ProcessTraffic(port: port, path: "/v1/sessions/\(before[0].id)/tally", token: before[0].token)
        #expect(await traffic.flows(), "requests flow before the take-over")
        let new = try await start(version: 2, port: port, ["--take-over"])
        #expect(await traffic.flows(20), "requests flow after the take-over")
        #expect(try await old.waitForExit() == 0)
        let failed = await traffic.stop()
        #expect(failed.isEmpty, "\(failed)")
        for session in before {
            let served = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(session.id)/tally", token: session.token)
            #expect(served.status == 200)
            let body = try #require(ProcessHTTP.json(served))
            #expect(body["label"] as? String == "tally", "\(served.text)")
            #expect(SnapshotMembers.keep(body, session.body), "\(served.text) keeps \(session.body)")
            let posted = try await ProcessHTTP.request(
                port, "POST", "/v1/sessions/\(session.id)/tally/events", token: session.token, body: #"{"type":"add"}"#)
            #expect(posted.status == 202)
        }
        let again = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(before[0].id)/tally", token: before[0].token)
        #expect(ProcessHTTP.json(again)?["count"] as? Int == 3)
        new.send(signal: SIGTERM)
        #expect(try await new.waitForExit() == 0)
    }

    /// A new build that refuses the stored schema once the old process has released the store exits 65 with one
    /// line saying why; the old process opens the store again and serves on its sockets (one log line saying so),
    /// nothing being refused meanwhile, its sessions and their writes intact; a later take-over still works.
    @Test func aNewBuildThatRefusesTheStoreLeavesTheOldOneServing() async throws {
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: directory + ".json")
        }
        let old = try await start(version: 1)
        let port = old.port
        let before = try await sessions(on: port, count: 1, adds: 1)
        let traffic = ProcessTraffic(port: port)
        #expect(await traffic.flows(), "requests flow before the take-over")
        let refused = try await ServerProcess.run(
            executable: try Self.app(), try arguments(port: port, ["--take-over"]),
            environment: ["SCHEMA_TEST_TALLY_VERSION": "3"], timeout: .seconds(120))
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("cannot take over: "), "\(refused.stderr)")
        #expect(refused.stderr.contains("the running server serves again"), "\(refused.stderr)")
        #expect(
            refused.stderr.split(separator: "\n").filter { $0.hasPrefix("schema-test-server: ") }.count == 1,
            "one line saying why, besides the log: \(refused.stderr)")
        #expect(await traffic.flows(20), "requests flow after the failed take-over")
        let failed = await traffic.stop()
        #expect(failed.isEmpty, "\(failed)")
        let session = before[0]
        let posted = try await ProcessHTTP.request(
            port, "POST", "/v1/sessions/\(session.id)/tally/events", token: session.token, body: #"{"type":"add"}"#)
        #expect(posted.status == 202, "the store takes writes again: \(posted.text)")
        let served = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(session.id)/tally", token: session.token)
        #expect(ProcessHTTP.json(served)?["count"] as? Int == 2)
        // The log is written in batches, a moment after the line is made.
        #expect(
            await eventually { old.standardErrorText().contains("serving again") }, "\(old.standardErrorText())")
        let lines = old.standardErrorText().split(separator: "\n").filter { $0.contains("serving again") }
        #expect(lines.count == 1, "\(lines)")

        // The process that went on serving hands over again, to a build that reads its store.
        let new = try await start(version: 2, port: port, ["--take-over"])
        #expect(try await old.waitForExit() == 0)
        let after = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(session.id)/tally", token: session.token)
        #expect(ProcessHTTP.json(after)?["count"] as? Int == 2)
        new.send(signal: SIGTERM)
        #expect(try await new.waitForExit() == 0)
    }
}
