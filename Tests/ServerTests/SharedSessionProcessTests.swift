import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A shared session through the real binary on its default store (issue 43): the owner invites, Bea joins with a
/// code, both post and each sees the other's change on its stream; Bea sees only what she was invited to; removed,
/// her token answers 401 and her stream ends; what both posted survives kill -9; every status of the routes.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct SharedSessionProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-shared-\(UUID().uuidString)")
        .path

    func start() async throws -> ServerProcess {
        try await ServerProcess(arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory])
    }

    static func person(_ name: String) -> String {
        #"{"type":"setPerson","firstName":"\#(name)","lastName":"Shared","birthdate":"1990-01-01"}"#
    }

    /// An invitation to `features` (nil: the default, every feature that can be shared) by the owner: its code.
    static func invite(
        _ port: Int, owner: (id: String, token: String), body: String = #"{"purpose":"join"}"#
    ) async throws -> String {
        let response = try await ProcessHTTP.request(
            port, "POST", "/v1/sessions/\(owner.id)/invitations", token: owner.token, body: body)
        try #require(response.status == 201, "\(response.status) \(response.text)")
        return try #require(ProcessHTTP.json(response)?["code"] as? String)
    }

    /// Joins with `code` as `name`: the participant's token and id.
    static func join(_ port: Int, code: String, name: String) async throws -> (token: String, id: String) {
        let response = try await ProcessHTTP.request(port, "POST", "/v1/invitations/\(code)", body: #"{"name":"\#(name)"}"#)
        try #require(response.status == 201, "\(response.status) \(response.text)")
        let json = try #require(ProcessHTTP.json(response))
        let participant = try #require(json["participant"] as? [String: Any])
        #expect(participant["name"] as? String == name)
        #expect(participant["role"] as? String == "member")
        #expect(response.header("set-cookie") != nil, "the browser's credential, as session creation sets it")
        return (try #require(json["token"] as? String), try #require(participant["id"] as? String))
    }

    /// A stream of the session, opened with `token`, read up to its first snapshots.
    static func stream(_ port: Int, session: String, token: String) async throws -> HTTPTestClient {
        let client = try HTTPTestClient(port: port)
        try client.send(
            "GET /v1/sessions/\(session)/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n")
        _ = try await client.read(untilContaining: "event: person", timeout: TestDeadline.scaled(.seconds(30)))
        return client
    }

    @Test func bothPostAndSeeEachOthersChangesAndARemovedMemberIsLockedOut() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await start()
        let port = server.port
        let owner = try await ProcessHTTP.createSession(port, features: ["person", "weather"])
        let code = try await Self.invite(port, owner: owner)
        let bea = try await Self.join(port, code: code, name: "Bea")

        let ownerStream = try await Self.stream(port, session: owner.id, token: owner.token)
        let beaStream = try await Self.stream(port, session: owner.id, token: bea.token)
        // The owner's stream hears Bea come online: an event of its own, not a version (no id).
        let online = try await ownerStream.read(
            untilContaining: #""online":true"#, timeout: TestDeadline.scaled(.seconds(30)))
        let onlineText = String(decoding: online, as: UTF8.self)
        #expect(onlineText.contains("event: presence\ndata: {\"id\":\"\(bea.id)\",\"name\":\"Bea\""), "\(onlineText)")
        let posted = try await ProcessHTTP.request(
            port, "POST", "/v1/sessions/\(owner.id)/person/events", token: bea.token, body: Self.person("Bea"))
        #expect(posted.status == 202, "\(posted.text)")
        _ = try await ownerStream.read(untilContaining: "Bea", timeout: TestDeadline.scaled(.seconds(30)))
        let ownerPosted = try await ProcessHTTP.request(
            port, "POST", "/v1/sessions/\(owner.id)/person/events", token: owner.token, body: Self.person("Olga"))
        #expect(ownerPosted.status == 202, "\(ownerPosted.text)")
        let seen = try await beaStream.read(untilContaining: "Olga", timeout: TestDeadline.scaled(.seconds(30)))
        #expect(!String(decoding: seen, as: UTF8.self).contains("event: weather"), "weather is not Bea's")

        // Each change is Bea's or the owner's, as their credentials said: in the data-flow log and the journal.
        let log = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(owner.id)/log", token: owner.token)
        #expect(log.text.contains(#"by=\"\#(bea.id)\""#), "\(log.text)")
        #expect(log.text.components(separatedBy: "by=").count == 2, "the owner's change names no one")
        let journal = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(owner.id)/journal", token: owner.token)
        #expect(journal.text.contains(#""participant":"\#(bea.id)""#))
        #expect(!journal.text.contains(bea.token) && !journal.text.contains(code), "no credential nor code exported")

        // Bea sees what she was invited to, and nothing else of the session.
        let weather = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(owner.id)/weather", token: bea.token)
        #expect(weather.status == 404)
        let weatherEvent = try await ProcessHTTP.request(
            port, "POST", "/v1/sessions/\(owner.id)/weather/events", token: bea.token,
            body: #"{"type":"changeLocation","location":"Tallinn"}"#)
        #expect(weatherEvent.status == 404)
        let info = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(owner.id)", token: bea.token)
        #expect(info.status == 200)
        #expect((ProcessHTTP.json(info)?["features"] as? [String: Any])?.keys.sorted() == ["person"])
        for (method, path) in [("DELETE", ""), ("GET", "/invitations")] {
            let refused = try await ProcessHTTP.request(port, method, "/v1/sessions/\(owner.id)\(path)", token: bea.token)
            #expect(refused.status == 403, "\(method) \(path): \(refused.status)")
        }
        // Her log, versions and export are of her feature alone (the owner's log has weather's start).
        #expect(log.text.contains("weather"), "\(log.text)")
        for path in ["/log", "/versions", "/journal"] {
            let read = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(owner.id)\(path)", token: bea.token)
            #expect(read.status == 200, "\(path): \(read.status)")
            #expect(read.text.contains("person") && !read.text.contains("weather"), "\(path): \(read.text)")
        }

        // Both are listed, both online while their streams are open.
        let listed = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(owner.id)/participants", token: bea.token)
        #expect(listed.status == 200)
        let participants = try #require(ProcessHTTP.json(listed)?["participants"] as? [[String: Any]])
        #expect(participants.map { $0["id"] as? String } == ["owner", bea.id])
        #expect(participants.map { ($0["presence"] as? [String: Any])?["online"] as? Bool } == [true, true])

        // Removed by the owner: 401 at once, and her stream ends.
        let other = try await ProcessHTTP.request(
            port, "DELETE", "/v1/sessions/\(owner.id)/participants/owner", token: bea.token)
        #expect(other.status == 403, "a member removes only itself")
        let removed = try await ProcessHTTP.request(
            port, "DELETE", "/v1/sessions/\(owner.id)/participants/\(bea.id)", token: owner.token)
        #expect(removed.status == 204)
        // Her stream ends: its final event, then the body's last chunk; the owner's hears her go offline.
        let end = try await beaStream.read(untilContaining: "0\r\n\r\n", timeout: TestDeadline.scaled(.seconds(30)))
        #expect(String(decoding: end, as: UTF8.self).contains("event: ended"))
        _ = try await ownerStream.read(untilContaining: #""online":false"#, timeout: TestDeadline.scaled(.seconds(30)))
        let after = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(owner.id)/person", token: bea.token)
        #expect(after.status == 401)
        let again = try await ProcessHTTP.request(
            port, "DELETE", "/v1/sessions/\(owner.id)/participants/\(bea.id)", token: owner.token)
        #expect(again.status == 404, "removed already")
        let wrong = try await ProcessHTTP.request(
            port, "GET", "/v1/sessions/\(owner.id)/person", token: "\(bea.id).notHerSecret")
        #expect(wrong.status == 404, "any other wrong token stays 404")
        _ = ownerStream
    }

    @Test func everyStatusOfInvitingAndJoining() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await start()
        let port = server.port
        let owner = try await ProcessHTTP.createSession(port, features: ["person", "chat"])
        let invitations = "/v1/sessions/\(owner.id)/invitations"
        for body in [
            #"{"purpose":"join","features":["chat"]}"#, #"{"purpose":"join","features":["nothing"]}"#,
            #"{"purpose":"join","role":"owner"}"#, #"{"purpose":"join","uses":0}"#, #"{"purpose":"join","uses":101}"#,
            #"{"purpose":"join","ttlSeconds":59}"#, #"{"purpose":"join","ttlSeconds":604801}"#,
            #"{"purpose":"join","extra":1}"#, #"{"purpose":"party"}"#, #"{"purpose":"join","features":["person","person"]}"#,
        ] {
            let refused = try await ProcessHTTP.request(port, "POST", invitations, token: owner.token, body: body)
            #expect(refused.status == 422, "\(body): \(refused.status)")
        }
        let made = try await ProcessHTTP.request(
            port, "POST", invitations, token: owner.token,
            body: #"{"purpose":"join","features":["person"],"role":"member","uses":2,"ttlSeconds":60}"#)
        #expect(made.status == 201)
        let json = try #require(ProcessHTTP.json(made))
        #expect(json["features"] as? [String] == ["person"])
        #expect(json["uses"] as? Int == 2)
        #expect(json["role"] as? String == "member")
        let code = try #require(json["code"] as? String)
        let listed = try await ProcessHTTP.request(port, "GET", invitations, token: owner.token)
        #expect(!listed.text.contains(code), "a code is shown once")
        #expect(listed.text.contains(#""purpose":"join""#))

        for name in ["", String(repeating: "a", count: 65), " "] {
            let refused = try await ProcessHTTP.request(
                port, "POST", "/v1/invitations/\(code)", body: #"{"name":"\#(name)"}"#)
            #expect(refused.status == 422, "name '\(name)'")
        }
        let unknown = try await ProcessHTTP.request(port, "POST", "/v1/invitations/nothing", body: #"{"name":"A"}"#)
        #expect(unknown.status == 404)
        let contact = try await ProcessHTTP.request(
            port, "POST", invitations, token: owner.token, body: #"{"purpose":"contact","features":["chat"],"name":"O"}"#)
        let contactCode = try #require(ProcessHTTP.json(contact)?["code"] as? String)
        let byContactCode = try await ProcessHTTP.request(
            port, "POST", "/v1/invitations/\(contactCode)", body: #"{"name":"A"}"#)
        #expect(byContactCode.status == 404, "a contact code is /contacts' alone")
        let ann = try await Self.join(port, code: code, name: "Ann")
        _ = try await Self.join(port, code: code, name: "Ben")
        // A member leaves: it may remove itself, and its token opens nothing from then on.
        let left = try await ProcessHTTP.request(
            port, "DELETE", "/v1/sessions/\(owner.id)/participants/\(ann.id)", token: ann.token)
        #expect(left.status == 204)
        let gone = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(owner.id)/participants", token: ann.token)
        #expect(gone.status == 401)
        let unknownParticipant = try await ProcessHTTP.request(
            port, "DELETE", "/v1/sessions/\(owner.id)/participants/pnobody", token: owner.token)
        #expect(unknownParticipant.status == 404)
        let used = try await ProcessHTTP.request(port, "POST", "/v1/invitations/\(code)", body: #"{"name":"Cid"}"#)
        #expect(used.status == 410)
        let withdrawnCode = try await Self.invite(port, owner: owner)
        let open = try await ProcessHTTP.request(port, "GET", invitations, token: owner.token)
        let id = try #require(
            (ProcessHTTP.json(open)?["invitations"] as? [[String: Any]])?.last?["id"] as? String)
        let withdrawal = try await ProcessHTTP.request(port, "DELETE", "\(invitations)/\(id)", token: owner.token)
        #expect(withdrawal.status == 204)
        let withdrawn = try await ProcessHTTP.request(
            port, "POST", "/v1/invitations/\(withdrawnCode)", body: #"{"name":"Dee"}"#)
        #expect(withdrawn.status == 410)
    }

    /// Bea and the owner each post 40 changes while the server is killed (`kill -9`) and started again: every change
    /// answered 202 is in the session's journal afterwards, and Bea's token still works.
    @Test func killNineWhileBothPostLosesNothingAcknowledged() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await start()
        let owner = try await ProcessHTTP.createSession(server.port, features: ["person"])
        let code = try await Self.invite(server.port, owner: owner)
        let bea = try await Self.join(server.port, code: code, name: "Bea")
        var acknowledged: [String] = []
        for number in 0..<40 {
            for (who, token) in [("Bea", bea.token), ("Olga", owner.token)] {
                let name = "\(who)\(number)"
                let response = try? await ProcessHTTP.request(
                    server.port, "POST", "/v1/sessions/\(owner.id)/person/events", token: token,
                    body: Self.person(name))
                if response?.status == 202 { acknowledged.append(name) }
            }
            if number == 20 {
                server.send(signal: SIGKILL)
                _ = try await server.waitForExit()
                server = try await start()
            }
        }
        let journal = try await ProcessHTTP.request(
            server.port, "GET", "/v1/sessions/\(owner.id)/journal", token: owner.token)
        #expect(journal.status == 200)
        #expect(acknowledged.count >= 40, "only \(acknowledged.count) of 80 answered 202")
        for name in acknowledged { #expect(journal.text.contains("\"\(name)\""), "\(name) acknowledged, then lost") }
        let after = try await ProcessHTTP.request(
            server.port, "GET", "/v1/sessions/\(owner.id)/person", token: bea.token)
        #expect(after.status == 200, "a participant outlives a restart")
    }
}
