import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Data written by an earlier release opens in this one. Each fixture holds two SQLite data directories written
/// through `scripts/make-upgrade-fixture.py`, one stopped with SIGTERM and one with SIGKILL (its last commits only in
/// the `-wal` file), and what that build served from them:
/// - `Fixtures/upgrade-0.1.0`: release 0.1.0 (commit 61eb9f7), schema v1 to v3;
/// - `Fixtures/upgrade-json-records`: the last build before ``JournalRecordFormat`` (commit 7c0ddda), schema v4, its
///   journal records the JSON of `SessionInput`'s synthesized `Codable` and its snapshots bare JSON.
/// This build must serve every session, every feature's snapshot (with its `ETag`) and every log as they were, and go
/// on from there without reusing a version. A snapshot may gain members across releases, never lose or change one:
/// every member the earlier build served is served with the same value (``served(_:keeps:)``); a feature whose
/// snapshot gained nothing is served byte for byte.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct UpgradeProcessTests {
    struct Expected: Decodable {
        struct Feature: Decodable {
            let etag: String
            let body: String
        }

        let id: String
        let token: String
        let features: [String: Feature]
        let log: String
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func expected(_ fixture: String) throws -> [String: [Expected]] {
        try JSONDecoder().decode(
            [String: [Expected]].self,
            from: Data(contentsOf: fixtures.appendingPathComponent(fixture).appendingPathComponent("expected.json")))
    }

    @Test(arguments: ["upgrade-0.1.0", "upgrade-json-records"], ["clean", "killed"])
    func storeOfAnEarlierBuildOpensWithEverySessionAsItWas(_ fixture: String, _ mode: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-upgrade-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.copyItem(
            atPath: Self.fixtures.appendingPathComponent(fixture).appendingPathComponent(mode).path, toPath: directory)
        // The fixture's sessions were last used the day it was made: an idle TTL of ten years keeps them alive.
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory],
            environment: ["VIEWHOST_SESSIONS_IDLE_TTL_SECONDS": "315360000", "VIEWHOST_LOG_ACCESS": "false"])
        let sessions = try #require(try Self.expected(fixture)[mode])
        #expect(sessions.count == 4)
        for session in sessions {
            for (feature, expected) in session.features.sorted(by: { $0.key < $1.key }) {
                let response = try await ProcessHTTP.request(
                    server.port, "GET", "/v1/sessions/\(session.id)/\(feature)", token: session.token)
                #expect(response.status == 200, "\(mode) \(session.id) \(feature)")
                #expect(response.header("ETag") == expected.etag, "\(mode) \(session.id) \(feature)")
                #expect(try Self.served(response.text, keeps: expected.body), "\(mode) \(session.id) \(feature)")
                if feature != "chat" { #expect(response.text == expected.body, "\(mode) \(session.id) \(feature)") }
            }
            let log = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(session.id)/log", token: session.token)
            #expect(log.text == session.log, "\(mode) \(session.id) log")
        }
        // It goes on from there: the next event gets the next version, never one already handed out.
        let person = try #require(sessions.first { $0.features["person"] != nil && $0.features["chat"] != nil })
        let before = try #require(Int(person.features["person"]!.etag.trimmingCharacters(in: ["\""])))
        let posted = try await ProcessHTTP.request(
            server.port, "POST", "/v1/sessions/\(person.id)/person/events", token: person.token,
            body: #"{"type":"setPerson","firstName":"Upgraded","lastName":"Person","birthdate":"2000-01-01"}"#)
        #expect(posted.status == 202)
        #expect(ProcessHTTP.json(posted)?["version"] as? Int == before + 1)
        // A session of the earlier build can be shared: its owner invites, Bea joins and posts as herself.
        let code = try await SharedSessionProcessTests.invite(server.port, owner: (person.id, person.token))
        let bea = try await SharedSessionProcessTests.join(server.port, code: code, name: "Bea")
        let byBea = try await ProcessHTTP.request(
            server.port, "POST", "/v1/sessions/\(person.id)/person/events", token: bea.token,
            body: SharedSessionProcessTests.person("Upgraded"))
        #expect(byBea.status == 202, "\(byBea.text)")
        #expect(ProcessHTTP.json(byBea)?["version"] as? Int == before + 2)
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        // Opened again, the journal holds records of both formats (the earlier build's, then this one's): the
        // session reads back with the new event, and every other as it was.
        let again = try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory],
            environment: ["VIEWHOST_SESSIONS_IDLE_TTL_SECONDS": "315360000", "VIEWHOST_LOG_ACCESS": "false"])
        let reread = try await ProcessHTTP.request(
            again.port, "GET", "/v1/sessions/\(person.id)/person", token: person.token)
        #expect(reread.status == 200)
        #expect(reread.header("ETag") == "\"\(before + 2)\"")
        #expect(reread.text.contains("Upgraded"))
        let asBea = try await ProcessHTTP.request(
            again.port, "GET", "/v1/sessions/\(person.id)/person", token: bea.token)
        #expect(asBea.status == 200, "her credential outlives the restart")
        for (feature, expected) in person.features where feature != "person" {
            let response = try await ProcessHTTP.request(
                again.port, "GET", "/v1/sessions/\(person.id)/\(feature)", token: person.token)
            #expect(try Self.served(response.text, keeps: expected.body), "\(fixture) \(mode) \(feature) after a restart")
        }
        again.send(signal: SIGTERM)
        #expect(try await again.waitForExit() == 0)
    }

    /// Whether the snapshot `served` keeps every member of `earlier` with its value: objects may gain members,
    /// arrays keep their length and each element is compared so, any other value is equal.
    static func served(_ served: String, keeps earlier: String) throws -> Bool {
        try SnapshotMembers.keep(
            JSONSerialization.jsonObject(with: Data(served.utf8), options: [.fragmentsAllowed]),
            JSONSerialization.jsonObject(with: Data(earlier.utf8), options: [.fragmentsAllowed]))
    }
}
