import Foundation
import Testing
import TestSupport
import ViewHost
import PersonFeature
import ViewModelCore

/// Invitations, contacts and deliveries between sessions over HTTP (issue 42), with the test feature `letters`:
/// every invitation status, letters that arrive once and in order (on the memory store and on SQLite), a flood
/// refused at the sender, an ended receiver, a blocked contact, and an imported copy that reaches no one.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ContactsHTTPTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-contacts-\(UUID().uuidString)").path

    static func letters(_ configure: @escaping (inout AppConfiguration) -> Void = { _ in }) throws -> (inout AppConfiguration) -> Void {
        let features = try HostedFeatures([.letters, .person], settings: FixedFeatureSettings())
        return { configuration in
            configuration.features = features
            configure(&configuration)
        }
    }

    static let invite = #"{"purpose":"contact","features":["letters"],"name":"Alice"}"#

    /// `POST /v1/sessions/{id}/invitations` expecting `201`: the code.
    static func invitation(_ app: TestApp, from session: TestSession, body: String = invite) async throws -> (id: String, code: String) {
        let response = try await app.request("POST", session.path("invitations"), token: session.token, body: body)
        try #require(response.status == 201, "\(response)")
        let json = try response.json
        return (try #require(json["id"].string), try #require(json["code"].string))
    }

    static func redeem(_ app: TestApp, _ code: String, by session: TestSession, as name: String = "Bob") async throws -> TestResponse {
        try await app.request(
            "POST", session.path("contacts"), token: session.token, body: #"{"code":"\#(code)","name":"\#(name)"}"#)
    }

    /// Two sessions of `letters` that made a contact (Bob redeemed Alice's invitation), each told of the other.
    static func pair(_ app: TestApp) async throws -> (alice: TestSession, bob: TestSession) {
        let alice = try await app.createSession()
        let bob = try await app.createSession()
        let (_, code) = try await invitation(app, from: alice)
        let redeemed = try await redeem(app, code, by: bob)
        try #require(redeemed.status == 201, "\(redeemed)")
        #expect(try redeemed.json["contact"]["name"].string == "Alice")
        #expect(try await app.snapshot(bob, "letters")["contacts"][0]["name"].string == "Alice")
        let told = try await eventually { try await app.snapshot(alice, "letters")["contacts"][0]["name"].string == "Bob" }
        #expect(told, "Alice is introduced to Bob by a delivery")
        return (alice, bob)
    }

    @Test func everyInvitationStatus() async throws {
        try await TestApp.run(Self.letters { $0.contacts.maxOpenInvitations = 3 }) { app in
            let alice = try await app.createSession()
            let bob = try await app.createSession()
            let carol = try await app.createSession()
            let response = try await app.request("POST", alice.path("invitations"), token: alice.token, body: Self.invite)
            #expect(response.status == 201)
            #expect(response.header("cache-control") == "no-store")
            let made = try response.json
            let code = try #require(made["code"].string)
            #expect(code.utf8.count == 32, "160 bits of base32")
            #expect(made["uses"].int == 1 && made["purpose"].string == "contact" && made["features"].strings == ["letters"])
            let expiresAt = try #require(made["expiresAt"].string.flatMap { try? Date($0, strategy: .iso8601) })
            #expect(abs(expiresAt.timeIntervalSince(app.scheduler.now) - 86_400) < 2)

            // Listed without its code; the code is in no snapshot, log or export.
            let listed = try await app.request("GET", alice.path("invitations"), token: alice.token)
            #expect(listed.status == 200)
            #expect(try listed.json["invitations"].array.map { $0["id"].string } == [made["id"].string])
            #expect(!listed.text.contains(code))
            for path in ["letters", "log", "journal"] {
                #expect(!(try await app.request("GET", alice.path(path), token: alice.token).text.contains(code)), "\(path)")
            }

            #expect(try await Self.redeem(app, "no-such-code", by: bob).status == 404)
            #expect(try await Self.redeem(app, code, by: alice).status == 409, "its own code")
            let redeemed = try await Self.redeem(app, code, by: bob)
            #expect(redeemed.status == 201)
            #expect(try redeemed.json["contact"]["name"].string == "Alice")
            #expect(try redeemed.json["contact"]["id"].string?.hasPrefix("c") == true)
            #expect(try await Self.redeem(app, code, by: bob).status == 409, "a contact it has")
            #expect(try await Self.redeem(app, code, by: carol).status == 410, "used up")
            #expect(try await app.request("GET", alice.path("invitations"), token: alice.token).json["invitations"].array.isEmpty)

            // Withdrawn, then gone; a second withdrawal finds nothing.
            let (withdrawn, withdrawnCode) = try await Self.invitation(app, from: alice)
            #expect(try await app.request("DELETE", alice.path("invitations/\(withdrawn)"), token: alice.token).status == 204)
            #expect(try await app.request("DELETE", alice.path("invitations/\(withdrawn)"), token: alice.token).status == 404)
            #expect(try await app.request("DELETE", bob.path("invitations/\(withdrawn)"), token: bob.token).status == 404)
            #expect(try await Self.redeem(app, withdrawnCode, by: carol).status == 410)

            // Expired.
            let (_, late) = try await Self.invitation(app, from: alice, body: #"{"purpose":"contact","features":["letters"],"name":"Alice","expiresInSeconds":60}"#)
            app.advance(by: .seconds(61))
            #expect(try await Self.redeem(app, late, by: carol).status == 410)

            // Malformed bodies name their member.
            let malformed: [(String, String)] = [
                (#"{"purpose":"party","features":["letters"],"name":"A"}"#, "purpose"),
                (#"{"purpose":"contact","features":["person"],"name":"A"}"#, "features[0]"),
                (#"{"purpose":"contact","features":["letters","person"],"name":"A"}"#, "features"),
                (#"{"purpose":"contact","features":["letters"]}"#, "name"),
                (#"{"purpose":"contact","features":["letters"],"name":"\#(String(repeating: "n", count: 65))"}"#, "name"),
                (#"{"purpose":"contact","features":["letters"],"name":"   "}"#, "name"),
                (#"{"purpose":"contact","features":["letters"],"name":"A","uses":0}"#, "uses"),
                (#"{"purpose":"contact","features":["letters"],"name":"A","colour":1}"#, "colour"),
            ]
            for (body, field) in malformed {
                let refused = try await app.request("POST", alice.path("invitations"), token: alice.token, body: body)
                #expect(refused.status == 422 && refused.problemFields == [field], "\(body): \(refused)")
            }
            let noName = try await app.request("POST", carol.path("contacts"), token: carol.token, body: #"{"code":"x"}"#)
            #expect(noName.status == 422 && noName.problemFields == ["name"])
            #expect(try await app.request("POST", carol.path("contacts"), token: carol.token, body: "[1]").status == 422)

            // At most three open: a fourth is 429 naming the limit.
            for _ in 0..<3 { _ = try await Self.invitation(app, from: carol) }
            let fourth = try await app.request("POST", carol.path("invitations"), token: carol.token, body: Self.invite)
            #expect(fourth.status == 429 && fourth.text.contains("contacts.maxOpenInvitations"), "\(fourth)")
            // Another session's token, none.
            #expect(try await app.request("GET", alice.path("invitations"), token: bob.token).status == 404)
            #expect(try await app.request("GET", alice.path("invitations")).status == 401)
        }
    }

    @Test func contactsPerSessionAndRedeemsPerClientAreBounded() async throws {
        try await TestApp.run(Self.letters {
            $0.contacts.maxPerSession = 1
            $0.rateLimits.sessionsPerMinutePerClient = 60
        }) { app in
            let (alice, _) = try await Self.pair(app)
            let carol = try await app.createSession()
            let (_, code) = try await Self.invitation(app, from: alice)
            let refused = try await Self.redeem(app, code, by: carol, as: "Carol")
            #expect(refused.status == 422 && refused.problemFields == ["contacts.maxPerSession"], "\(refused)")
            var limited: TestResponse?
            for _ in 0..<80 where limited == nil {
                let answer = try await Self.redeem(app, "guess", by: carol)
                if answer.status == 429 { limited = answer }
            }
            #expect(limited?.text.contains("limits.sessionsPerMinutePerClient") == true, "\(String(describing: limited))")
        }
    }

    @Test func lettersArriveOnceInOrderAndBothJournalsSaySo() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await TestApp.run(Self.letters(), storeDirectory: directory, storeHistory: 1000) { app in
            let (alice, bob) = try await Self.pair(app)
            for batch in 0..<5 {
                let events = (0..<10).map { #"{"type":"write","to":"Bob","text":"\#(batch * 10 + $0)"}"# }
                try await app.send(alice, "letters", "[" + events.joined(separator: ",") + "]")
            }
            let arrived = try await eventually { try await app.snapshot(bob, "letters")["received"].array.count >= 50 }
            #expect(arrived)
            let received = try await app.snapshot(bob, "letters")["received"].array
            #expect(received.map { $0["text"].string } == (0..<50).map { "\($0)" })
            #expect(received.allSatisfy { $0["from"].string == "Alice" })

            let bobLines = try await app.request("GET", bob.path("journal"), token: bob.token).text.split(separator: "\n")
            let delivered = bobLines.filter { $0.contains(#""kind":"delivery""#) && $0.contains(#""introduction":null"#) }
            let letters = try delivered.reduce(0) { $0 + (try JSON(bytes: Array($1.utf8))["events"].array.count) }
            #expect(letters == 50)
            let aliceLines = try await app.request("GET", alice.path("journal"), token: alice.token).text
            #expect(aliceLines.contains(#""kind":"acknowledgement""#))
            #expect(aliceLines.contains(#""kind":"delivery""#), "Bob's introduction arrived as a delivery")
            let log = try await app.log(bob)
            #expect(log.filter { $0["event"].string == "letter" }.allSatisfy { $0["source"].string == "session" && $0["causedBy"].isNull })
            let metrics = try await app.request("GET", "/metrics").text
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("viewhost_deliveries_delivered_total ") }
            #expect((line?.split(separator: " ").last.flatMap { Double($0) } ?? 0) >= 50, "\(line ?? "")")
            #expect(metrics.contains(#"viewhost_deliveries_failed_total{reason="ended"} 0"#))
        }
    }

    /// Two nodes sharing PostgreSQL: Alice's session lives on node a and invites, Bob's on node b redeems the code
    /// (b finds it in the database a wrote it to), and letters cross both ways, each applied by its receiver's owner.
    /// (The directory was once a memory one per node with `--store postgres`: b knew no code of a's, and answered
    /// `404`.)
    @Test func aContactMadeAcrossTwoNodesCarriesLettersBothWays() async throws {
        let postgres = try await PostgresServer()
        let a = try TestApp(Self.letters(), node: ClusterNode(name: "a", databaseURL: postgres.url))
        try await TestApp.run(Self.letters(), node: ClusterNode(name: "b", databaseURL: postgres.url)) { b in
            let alice = try await a.createSession()
            let bob = try await b.createSession()
            let (_, code) = try await Self.invitation(a, from: alice)
            let redeemed = try await Self.redeem(b, code, by: bob)
            try #require(redeemed.status == 201, "b knows the code a kept: \(redeemed)")
            #expect(try await b.snapshot(bob, "letters")["contacts"][0]["name"].string == "Alice")
            let told = try await eventually { try await a.snapshot(alice, "letters")["contacts"][0]["name"].string == "Bob" }
            #expect(told, "Alice, on a, is introduced to Bob by a delivery from b")
            let again = try await Self.redeem(a, code, by: try await a.createSession())
            #expect(again.status == 410, "used, on the other node too: \(again)")

            try await b.send(bob, "letters", #"[{"type":"write","to":"Alice","text":"1"},{"type":"write","to":"Alice","text":"2"}]"#)
            try await a.send(alice, "letters", #"{"type":"write","to":"Bob","text":"back"}"#)
            let arrived = try await eventually { try await a.snapshot(alice, "letters")["received"].array.count == 2 }
            #expect(arrived)
            #expect(try await a.snapshot(alice, "letters")["received"].array.map { $0["text"].string } == ["1", "2"])
            #expect(try await eventually { try await b.snapshot(bob, "letters")["received"].array.count == 1 })
            let contacts = try await postgres.psql("SELECT count(*) FROM contacts")
            #expect(contacts.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "one contact: an address on each side")
        }
        await a.stop()
        await postgres.stop()
    }

    @Test func aFloodIsRefusedAtTheSender() async throws {
        try await TestApp.run(Self.letters { $0.contacts.maxPending = 8 }) { app in
            let (alice, bob) = try await Self.pair(app)
            let flood = (0..<20).map { #"{"type":"write","to":"Bob","text":"\#($0)"}"# }
            let refused = try await app.post(alice, "letters", "[" + flood.joined(separator: ",") + "]")
            #expect(refused.status == 429 && refused.text.contains("deliveries.maxPending"), "\(refused)")
            #expect(refused.header("retry-after") == "1")
            #expect(try await app.snapshot(alice, "letters")["written"].int == 0, "nothing applied")
            try await app.send(alice, "letters", "[" + flood.prefix(8).joined(separator: ",") + "]")
            #expect(try await eventually { try await app.snapshot(bob, "letters")["received"].array.count == 8 })
        }
    }

    @Test func anEndedReceiverComesBackAndABlockedSenderIsDroppedSilently() async throws {
        try await TestApp.run(Self.letters()) { app in
            let (alice, bob) = try await Self.pair(app)
            try await app.send(bob, "letters", #"{"type":"block","contact":"Alice"}"#)
            try await app.send(alice, "letters", #"{"type":"write","to":"Bob","text":"spam"}"#)
            try await app.send(bob, "letters", #"{"type":"write","to":"Alice","text":"hi"}"#)
            #expect(try await eventually { try await app.snapshot(alice, "letters")["received"].array.count == 1 })
            #expect(try await app.snapshot(bob, "letters")["received"].array.isEmpty)
            #expect(try await app.snapshot(alice, "letters")["undelivered"].array.isEmpty)

            #expect(try await app.request("DELETE", bob.path(""), token: bob.token).status == 204)
            try await app.send(alice, "letters", #"{"type":"write","to":"Bob","text":"gone"}"#)
            let bounced = try await eventually {
                try await app.snapshot(alice, "letters")["undelivered"].strings == ["gone to Bob: ended"]
            }
            #expect(bounced)
        }
    }

    @Test func anImportedCopyReachesNoOne() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await TestApp.run(Self.letters(), storeDirectory: directory, storeHistory: 1000) { app in
            let (alice, bob) = try await Self.pair(app)
            try await app.send(alice, "letters", #"{"type":"write","to":"Bob","text":"original"}"#)
            #expect(try await eventually { try await app.snapshot(bob, "letters")["received"].array.count == 1 })
            let export = try await app.request("GET", alice.path("journal"), token: alice.token)
            let imported = try await app.request(
                "POST", "/v1/sessions", body: export.text, contentType: "application/x-ndjson")
            try #require(imported.status == 201, "\(imported)")
            let copy = TestSession(id: try #require(try imported.json["id"].string), token: try #require(try imported.json["token"].string))
            #expect(try await app.snapshot(copy, "letters")["contacts"][0]["name"].string == "Bob", "the conversation stays")
            try await app.send(copy, "letters", #"{"type":"write","to":"Bob","text":"from the copy"}"#)
            let bounced = try await eventually(timeout: .seconds(10)) {
                try await app.snapshot(copy, "letters")["undelivered"].strings == ["from the copy to Bob: unknownAddress"]
            }
            let metrics = try await app.request("GET", "/metrics").text.split(separator: "\n").filter { $0.hasPrefix("viewhost_deliveries") }
            let seen = "\(try await app.snapshot(copy, "letters")) \(try await app.log(copy)) \(metrics)"
            #expect(bounced, "\(seen)")
            #expect(try await app.snapshot(bob, "letters")["received"].array.map { $0["text"].string } == ["original"])
            #expect(try await Self.redeem(app, "x", by: copy).status == 404)
        }
    }
}
