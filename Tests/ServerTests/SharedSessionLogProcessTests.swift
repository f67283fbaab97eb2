import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A shared session's invitations, joins and removals in its data-flow log (issue 43, item 5), through the real binary
/// on SQLite: each is an entry of `participants` in the owner's `/log` with the invitation's or participant's id and
/// never a code or a token; members do not see them; they survive kill -9, and an export imported keeps them; a
/// stream resumed across one gets exactly what it missed.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct SharedSessionLogProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-sharedlog-\(UUID().uuidString)")
        .path

    func start() async throws -> ServerProcess {
        try await ServerProcess(arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory])
    }

    /// A join invitation by the owner: its id and code.
    static func invite(_ port: Int, owner: (id: String, token: String)) async throws -> (id: String, code: String) {
        let response = try await ProcessHTTP.request(
            port, "POST", "/v1/sessions/\(owner.id)/invitations", token: owner.token, body: #"{"purpose":"join"}"#)
        try #require(response.status == 201, "\(response.status) \(response.text)")
        let json = try #require(ProcessHTTP.json(response))
        return (try #require(json["id"] as? String), try #require(json["code"] as? String))
    }

    /// The `participants` entries of `text` (a `/log` answer): event and summary of each, in order.
    static func participation(in text: String) -> [String] {
        let entries = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? []
        return entries.filter { $0["feature"] as? String == "participants" }.map {
            #expect($0["versionAfter"] as? Int == 0 && $0["source"] as? String == "client", "\($0)")
            return "\($0["event"] as? String ?? "?") \($0["summary"] as? String ?? "?")"
        }
    }

    @Test func invitationsJoinsAndRemovalsAreInTheOwnersLogAfterARestartAndInAnImportedExport() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await start()
        let owner = try await ProcessHTTP.createSession(server.port, features: ["person"])
        let first = try await Self.invite(server.port, owner: owner)
        let bea = try await SharedSessionProcessTests.join(server.port, code: first.code, name: "Bea")
        let second = try await Self.invite(server.port, owner: owner)
        let withdrawal = try await ProcessHTTP.request(
            server.port, "DELETE", "/v1/sessions/\(owner.id)/invitations/\(second.id)", token: owner.token)
        #expect(withdrawal.status == 204)
        let third = try await Self.invite(server.port, owner: owner)
        let cid = try await SharedSessionProcessTests.join(server.port, code: third.code, name: "Cid")
        // A member's own log and export hold none of them: they are of no feature it was invited to.
        let beaLog = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(owner.id)/log", token: bea.token)
        #expect(beaLog.status == 200)
        #expect(Self.participation(in: beaLog.text).isEmpty, "\(beaLog.text)")
        let beaExport = try await ProcessHTTP.request(
            server.port, "GET", "/v1/sessions/\(owner.id)/journal", token: bea.token)
        #expect(beaExport.status == 200 && !beaExport.text.contains("participants"), "\(beaExport.text)")
        let left = try await ProcessHTTP.request(
            server.port, "DELETE", "/v1/sessions/\(owner.id)/participants/\(cid.id)", token: cid.token)
        #expect(left.status == 204)
        let removed = try await ProcessHTTP.request(
            server.port, "DELETE", "/v1/sessions/\(owner.id)/participants/\(bea.id)", token: owner.token)
        #expect(removed.status == 204)

        let expected = [
            #"invited invitation="\#(first.id)""#, #"joined participant="\#(bea.id)""#,
            #"invited invitation="\#(second.id)""#, #"withdrawn invitation="\#(second.id)""#,
            #"invited invitation="\#(third.id)""#, #"joined participant="\#(cid.id)""#,
            #"left participant="\#(cid.id)""#, #"removed participant="\#(bea.id)""#,
        ]
        let log = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(owner.id)/log", token: owner.token)
        #expect(Self.participation(in: log.text) == expected, "\(log.text)")
        for secret in [first.code, second.code, third.code, bea.token, cid.token, "Bea", "Cid"] {
            #expect(!log.text.contains(secret), "the log holds \(secret)")
        }

        // Durable: after kill -9 the journal's replay makes them again.
        server.send(signal: SIGKILL)
        _ = try await server.waitForExit()
        server = try await start()
        let replayed = try await ProcessHTTP.request(
            server.port, "GET", "/v1/sessions/\(owner.id)/log", token: owner.token)
        #expect(Self.participation(in: replayed.text) == expected, "\(replayed.text)")

        // The owner's export has a line of each, and a copy made from it has them in its log.
        let export = try await ProcessHTTP.request(
            server.port, "GET", "/v1/sessions/\(owner.id)/journal", token: owner.token)
        #expect(export.status == 200)
        #expect(export.text.components(separatedBy: #""kind":"participation""#).count == expected.count + 1)
        for secret in [first.code, bea.token, "Bea"] { #expect(!export.text.contains(secret)) }
        let copy = try await Self.importing(export.text, port: server.port)
        let copied = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(copy.id)/log", token: copy.token)
        #expect(Self.participation(in: copied.text) == expected, "\(copied.text)")
        // A copy of Bea's export has none.
        let beaCopy = try await Self.importing(beaExport.text, port: server.port)
        let beaCopied = try await ProcessHTTP.request(
            server.port, "GET", "/v1/sessions/\(beaCopy.id)/log", token: beaCopy.token)
        #expect(beaCopied.status == 200 && Self.participation(in: beaCopied.text).isEmpty, "\(beaCopied.text)")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// A stream resumed with `Last-Event-ID` from before, at, or after a participation entry's sequence number gets
    /// the versions it missed and nothing else (the entry takes a sequence number and makes no version).
    @Test func aStreamResumedAcrossAParticipationGetsExactlyWhatItMissed() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await start()
        let owner = try await ProcessHTTP.createSession(server.port, features: ["person"])
        func post(_ name: String) async throws {
            let posted = try await ProcessHTTP.request(
                server.port, "POST", "/v1/sessions/\(owner.id)/person/events", token: owner.token,
                body: SharedSessionProcessTests.person(name))
            #expect(posted.status == 202)
        }
        func sequence() async throws -> Int {
            let log = try await ProcessHTTP.request(
                server.port, "GET", "/v1/sessions/\(owner.id)/log", token: owner.token)
            return try #require(Int(log.header("X-Log-Latest-Seq") ?? ""))
        }
        try await post("Before")
        let before = try await sequence()
        _ = try await Self.invite(server.port, owner: owner)
        let invited = try await sequence()
        #expect(invited == before + 1)
        try await post("Missed")
        let missed = try await sequence()
        for lastID in [before, invited] {
            let resumed = try HTTPTestClient(port: server.port)
            try resumed.send(
                "GET /v1/sessions/\(owner.id)/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(owner.token)\r\nLast-Event-ID: \(lastID)\r\n\r\n"
            )
            let frames = String(
                decoding: try await resumed.read(untilContaining: "Missed", timeout: TestDeadline.scaled(.seconds(30))),
                as: UTF8.self)
            #expect(DurabilityProcessTests.eventIDs(in: frames) == [missed], "from \(lastID): \(frames)")
            #expect(!frames.contains("Before"), "from \(lastID): \(frames)")
        }
        // Resumed after the last change: nothing again, the next change alone.
        _ = try await Self.invite(server.port, owner: owner)
        let resumed = try HTTPTestClient(port: server.port)
        try resumed.send(
            "GET /v1/sessions/\(owner.id)/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(owner.token)\r\nLast-Event-ID: \(missed + 1)\r\n\r\n"
        )
        _ = try await resumed.read(untilContaining: "\r\n\r\n")
        try await post("After")
        let after = String(
            decoding: try await resumed.read(untilContaining: "After", timeout: TestDeadline.scaled(.seconds(30))),
            as: UTF8.self)
        #expect(DurabilityProcessTests.eventIDs(in: after) == [missed + 2], "\(after)")
        #expect(!after.contains("Missed"), "\(after)")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// `POST /v1/sessions` with an export: the copy's id and token.
    static func importing(_ export: String, port: Int) async throws -> (id: String, token: String) {
        let client = try HTTPTestClient(port: port)
        try client.send(
            "POST /v1/sessions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-ndjson\r\n"
                + "Content-Length: \(export.utf8.count)\r\n\r\n\(export)")
        let response = try await client.readResponse(timeout: .seconds(60))
        try #require(response.status == 201, "\(response.status) \(response.text)")
        let json = try #require(ProcessHTTP.json(response))
        return (try #require(json["id"] as? String), try #require(json["token"] as? String))
    }
}
