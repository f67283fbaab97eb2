import Foundation
import HTTPCore
import Testing
import TestSupport
import ViewHost

/// What a shared session's participants may and may not do (issue 43, "Security"), its life while only a member uses
/// it, and its export: a member cannot act as another nor as the owner (its token opens nothing of another session, a
/// name in the body or the query makes no one else the sender, the owner's routes are `403`); a member's requests and
/// open stream keep the session from idle expiry as the owner's do; an imported copy of an export has no participants.
/// The clock is the test's (``TestApp/advance(by:)``).
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct SharedSessionHTTPTests {
    static func person(_ name: String) -> String {
        #"{"type":"setPerson","firstName":"\#(name)","lastName":"Shared","birthdate":"1990-01-01"}"#
    }

    /// Someone who joined `owner`'s session as `name` by a new invitation: its own credential for the session, and
    /// its participant id.
    static func join(_ app: TestApp, _ owner: TestSession, as name: String) async throws -> (TestSession, String) {
        let joined = try await ParticipantLimitsHTTPTests.join(app, owner, as: name)
        try #require(joined.status == 201, "\(joined)")
        let member = TestSession(id: owner.id, token: try #require(try joined.json["token"].string))
        return (member, try #require(try joined.json["participant"]["id"].string))
    }

    @Test func aParticipantCannotActAsAnotherNorAsTheOwner() async throws {
        try await TestApp.run { app in
            let owner = try await app.createQuietSession()
            let other = try await app.createQuietSession()
            let (bea, beaID) = try await Self.join(app, owner, as: "Bea")
            let (_, cidID) = try await Self.join(app, owner, as: "Cid")

            // Her token is of her session alone: on another session it is any wrong token, 404.
            let elsewhere = TestSession(id: other.id, token: bea.token)
            for (method, path, body) in [
                ("GET", elsewhere.path("person"), nil), ("GET", elsewhere.path(), nil),
                ("GET", elsewhere.path("participants"), nil), ("GET", elsewhere.path("stream"), nil),
                ("POST", elsewhere.path("person/events"), Self.person("Bea")),
                ("DELETE", elsewhere.path("participants/\(beaID)"), nil),
            ] as [(String, String, String?)] {
                let response = try await app.request(method, path, token: bea.token, body: body)
                #expect(response.status == 404, "\(method) \(path): \(response)")
            }

            // The owner's routes are the owner's: inviting, withdrawing, contacts, deleting the session, removing
            // another member.
            let open = try await app.request(
                "POST", owner.path("invitations"), token: owner.token, body: #"{"purpose":"join"}"#)
            let invitation = try #require(try open.json["id"].string)
            for (method, path, body) in [
                ("POST", owner.path("invitations"), #"{"purpose":"join"}"#),
                ("POST", owner.path("invitations"), #"{"purpose":"join","features":["person"],"role":"member"}"#),
                ("DELETE", owner.path("invitations/\(invitation)"), nil),
                ("GET", owner.path("invitations"), nil),
                ("DELETE", owner.path("participants/\(cidID)"), nil),
                ("DELETE", owner.path("participants/owner"), nil), ("DELETE", owner.path(), nil),
            ] as [(String, String, String?)] {
                let response = try await app.request(method, path, token: bea.token, body: body)
                #expect(response.status == 403, "\(method) \(path): \(response)")
            }
            let participants = try await app.request("GET", owner.path("participants"), token: owner.token)
            #expect(try participants.json["participants"].array.compactMap { $0["id"].string } == ["owner", beaID, cidID])
            #expect(try await app.request("GET", owner.path(), token: owner.token).status == 200, "not deleted")

            // Who sent an event is her credential's word, never the request's: a query naming the owner or another
            // member changes nothing, and a body naming one is refused as any unknown member.
            for query in ["?participant=owner", "?participant=\(cidID)", "?by=owner"] {
                let posted = try await app.request(
                    "POST", owner.path("person/events") + query, token: bea.token, body: Self.person("Query"))
                #expect(posted.status == 202, "\(query): \(posted)")
            }
            for member in [#""participant":"owner""#, #""participant":"\#(cidID)""#, #""by":"owner""#] {
                let body = Self.person("Body").dropLast() + ",\(member)}"
                let posted = try await app.post(bea, "person", String(body))
                #expect(posted.status == 422, "\(member): \(posted)")
            }
            let log = try await app.log(owner)
            let byQuery = log.filter { $0["summary"].string?.contains("Query") == true }
            #expect(byQuery.count == 3)
            #expect(byQuery.allSatisfy { $0["summary"].string?.hasPrefix(#"by="\#(beaID)""#) == true }, "\(byQuery)")
            #expect(!log.contains { $0["summary"].string?.contains("Body") == true }, "refused: nothing applied")
        }
    }

    /// A member's log, versions and export hold the features it was invited to and nothing else of the session: the
    /// owner's login events are absent from all three, and the export imports as a session of its features alone,
    /// which shows what the member saw. The owner's export is still the whole session.
    @Test func aMembersLogVersionsAndExportHoldOnlyItsFeatures() async throws {
        try await TestApp.run { app in
            let owner = try await app.createQuietSession()
            let (bea, _) = try await Self.join(app, owner, as: "Bea")
            try await app.send(owner, "login", #"{"type":"setUsername","value":"olga"}"#)
            #expect(try await app.post(bea, "person", Self.person("Beatrix")).status == 202)
            try await app.send(owner, "login", #"{"type":"setUsername","value":"olgaagain"}"#)
            #expect(try await app.post(bea, "person", Self.person("Bernadette")).status == 202)

            let log = try await app.log(bea)
            #expect(!log.isEmpty && log.allSatisfy { $0["feature"].string == "person" }, "\(log)")
            #expect(try await app.log(owner).contains { $0["feature"].string == "login" }, "the owner's has all")

            let versions = try await app.request("GET", bea.path("versions"), token: bea.token)
            try #require(versions.status == 200, "\(versions)")
            #expect(try versions.json["features"].keys == ["person"], "\(versions)")
            let listed = try versions.json["versions"].array
            #expect(!listed.isEmpty && listed.allSatisfy { $0["feature"].string == "person" }, "\(versions)")

            let exported = try await JournalHTTPTests.export(app, bea)
            let text = String(decoding: exported, as: UTF8.self)
            #expect(!text.contains("olga") && !text.contains("login") && !text.contains("chat"), "\(text)")
            #expect(text.contains("Bernadette"))
            let header = try JSON(bytes: Array(text.split(separator: "\n")[0].utf8))
            #expect(header["features"].strings == ["person"])
            #expect(!text.contains(bea.token) && !text.contains("Bea\""), "no credential, no name")
            let response = try await JournalHTTPTests.importJournal(app, exported)
            try #require(response.status == 201, "\(response)")
            let copy = TestSession(
                id: try #require(try response.json["id"].string), token: try #require(try response.json["token"].string))
            #expect(try await app.request("GET", copy.path("login"), token: copy.token).status == 404)
            #expect(try await app.request("GET", copy.path("chat"), token: copy.token).status == 404)
            let seen = try await app.request("GET", bea.path("person"), token: bea.token)
            let copied = try await app.request("GET", copy.path("person"), token: copy.token)
            #expect(copied.status == 200 && copied.header("ETag") == seen.header("ETag"))
            #expect(
                String(decoding: copied.body, as: UTF8.self).replacingOccurrences(of: copy.id, with: owner.id)
                    == String(decoding: seen.body, as: UTF8.self))
            let copiedLog = try await app.log(copy)
            #expect(copiedLog.map { $0["seq"].int } == log.map { $0["seq"].int }, "its log kept")
            // It goes on from there, its log's numbers skipping the others' entries: its next version is listed with
            // the entry that made it.
            #expect(try await app.post(copy, "person", Self.person("Copied")).status == 202)
            let copyVersions = try await app.request("GET", copy.path("versions"), token: copy.token).json
            let last = try #require(copyVersions["versions"].array.last)
            #expect(last["cause"]["summary"].string?.contains("Copied") == true, "\(copyVersions)")

            let whole = String(decoding: try await JournalHTTPTests.export(app, owner), as: UTF8.self)
            #expect(whole.contains("olgaagain") && whole.contains("Bernadette"), "the owner's is the whole session")
        }
    }

    /// A session that only a member uses stays alive: each of her requests counts as use, and so does each
    /// heartbeat of her open stream, as the owner's do (an idle TTL of 60 s; 120 s pass each way).
    @Test func aMembersRequestsAndStreamKeepTheSessionAlive() async throws {
        try await TestApp.run({
            $0.streams.heartbeat = .milliseconds(100)
            $0.sessions.idleTTL = .seconds(60)
        }) { app in
            let owner = try await app.createQuietSession()
            let (bea, _) = try await Self.join(app, owner, as: "Bea")
            for _ in 0..<3 {
                app.advance(by: .seconds(40))
                #expect(try await app.request("GET", bea.path("person"), token: bea.token).status == 200)
            }
            let reader = try SSEReader(port: app.port, path: bea.path("stream"), token: bea.token)
            #expect(try await reader.head().status == 200)
            for _ in 0..<3 {
                app.advance(by: .seconds(40))
                // The second heartbeat read after the advance was surely written after it (StreamHTTPTests).
                for _ in 0..<2 { _ = try await reader.frames(until: { $0.comment == "keepalive" }) }
            }
            #expect(try await app.request("GET", owner.path(), token: owner.token).status == 200, "240 s, kept alive")
            withExtendedLifetime(reader) {}
        }
    }

    /// The owner's export is the whole session, with who sent each event, and no participant's name, credential nor
    /// invitation; its imported copy has no participants: the member's token of the original opens nothing of it.
    @Test func anExportKeepsNoParticipantAndItsImportedCopyHasNone() async throws {
        try await TestApp.run { app in
            let owner = try await app.createQuietSession()
            let invited = try await app.request(
                "POST", owner.path("invitations"), token: owner.token, body: #"{"purpose":"join","uses":2}"#)
            let code = try #require(try invited.json["code"].string)
            let joined = try await app.request("POST", "/v1/invitations/\(code)", body: #"{"name":"Beatrix"}"#)
            try #require(joined.status == 201)
            let bea = TestSession(id: owner.id, token: try #require(try joined.json["token"].string))
            let beaID = try #require(try joined.json["participant"]["id"].string)
            let posted = try await app.post(bea, "person", Self.person("Shared"))
            #expect(posted.status == 202, "\(posted)")
            try await app.send(owner, "login", #"{"type":"setUsername","value":"olga"}"#)

            let exported = try await JournalHTTPTests.export(app, owner)
            let text = String(decoding: exported, as: UTF8.self)
            #expect(text.contains(#""participant":"\#(beaID)""#), "who sent it")
            #expect(text.contains("olga") && text.contains("Shared"), "every feature's events")
            for secret in [bea.token, code, "Beatrix"] { #expect(!text.contains(secret), "\(secret) exported") }

            let response = try await JournalHTTPTests.importJournal(app, exported)
            try #require(response.status == 201, "\(response)")
            let copy = TestSession(
                id: try #require(try response.json["id"].string), token: try #require(try response.json["token"].string))
            let listed = try await app.request("GET", copy.path("participants"), token: copy.token)
            #expect(try listed.json["participants"].array.compactMap { $0["id"].string } == ["owner"])
            let byMember = TestSession(id: copy.id, token: bea.token)
            #expect(try await app.request("GET", byMember.path("person"), token: bea.token).status == 404)
            #expect(try await app.post(byMember, "person", Self.person("Copy")).status == 404)
            // Nor does the code: it joins the original, never the copy.
            let again = try await app.request("POST", "/v1/invitations/\(code)", body: #"{"name":"Cid"}"#)
            #expect(try again.json["id"].string == owner.id)
        }
    }
}
