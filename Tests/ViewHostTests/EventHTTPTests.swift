import ViewHost
import Foundation
import HTTPCore
import Testing
import TestSupport
import ChatAPI
import LoginAPI
import PersonAPI
import WeatherAPI
import ViewHostAPI
import ViewModelCore

/// API.md "Events (write)" over loopback: 202 and its version, every refusal (400/413/415/422) as a problem
/// document naming the field, whole-batch rejection, idempotency, and domain refusals as state.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct EventHTTPTests {
    /// A session whose chat list has loaded (John is there).
    private func loadedSession(_ app: TestApp) async throws -> TestSession {
        let session = try await app.createSession()
        app.advance(by: .milliseconds(500))
        return session
    }

    private func chatVersion(_ app: TestApp, _ session: TestSession) async throws -> Int {
        try #require(try await app.snapshot(session)["version"].int)
    }

    @Test func singleEventIs202WithTheNewVersion() async throws {
        try await TestApp.run { app in
            let session = try await loadedSession(app)
            let before = try await chatVersion(app, session)
            let response = try await app.post(session, "chat", #"{"type":"addChat"}"#)
            #expect(response.status == 202)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(response.text == #"{"accepted":1,"version":\#(before + 1)}"#)
            #expect(try await chatVersion(app, session) == before + 1)
        }
    }

    @Test func batchIsAppliedInOrder() async throws {
        try await TestApp.run { app in
            let session = try await loadedSession(app)
            let before = try await chatVersion(app, session)
            let response = try await app.post(
                session, "chat",
                #"[{"type":"openChat","contact":"John"},{"type":"back"},{"type":"addChat"}]"#)
            #expect(response.status == 202)
            #expect(try response.json["accepted"].int == 3)
            let version = try #require(try response.json["version"].int)
            #expect(version > before)
            let chat = try await app.snapshot(session)
            #expect(chat["version"].int == version)
            #expect(chat.screens == ["chatList", "createChat"])
        }
    }

    @Test func refusalsAreProblemDocuments() async throws {
        try await TestApp.run { app in
            let session = try await loadedSession(app)
            let cases: [(body: String, contentType: String?, status: Int)] = [
                (#"{"type":"addChat""#, "application/json", 400),
                ("not json", "application/json", 400),
                ("", "application/json", 400),
                (#"{"type":"addChat"}"#, "text/plain", 415),
                (#"{"type":"addChat"}"#, nil, 415),
                (#"{"type":"addChat"}"#, "application/json; charset=latin1", 415),
                ("[]", "application/json", 422),
                ("42", "application/json", 422),
                (#"["addChat"]"#, "application/json", 422),
            ]
            for (body, contentType, status) in cases {
                let response = try await app.request(
                    "POST", session.path("chat/events"), token: session.token, body: body, contentType: contentType)
                #expect(response.status == status, "\(body) as \(contentType ?? "nothing")")
                #expect(response.header("Content-Type") == "application/problem+json")
                let problem = try response.json
                #expect(problem["type"].string != nil && problem["title"].string != nil)
                #expect(problem["status"].int == status)
                #expect(problem["detail"].string?.isEmpty == false)
            }
        }
    }

    @Test func moreThan100EventsIs413() async throws {
        try await TestApp.run { app in
            let session = try await loadedSession(app)
            let before = try await chatVersion(app, session)
            let events = "[" + Array(repeating: #"{"type":"appBecomeActive"}"#, count: 101).joined(separator: ",") + "]"
            let response = try await app.post(session, "chat", events)
            #expect(response.status == 413)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try await chatVersion(app, session) == before)
            let hundred = "[" + Array(repeating: #"{"type":"appBecomeActive"}"#, count: 100).joined(separator: ",") + "]"
            #expect(try await app.post(session, "chat", hundred).status == 202)
        }
    }

    @Test func bodyOverTheByteLimitIs413() async throws {
        try await TestApp.run({ $0.http.limits.maxBodyBytes = 1024 }) { app in
            let session = try await loadedSession(app)
            let text = String(repeating: "x", count: 2000)
            let response = try await app.post(session, "chat", #"{"type":"send","contact":"John","text":"\#(text)"}"#)
            #expect(response.status == 413)
            #expect(response.header("Content-Type") == "application/problem+json")
        }
    }

    @Test func unknownTypeIs422ListingTheAllowedTypes() async throws {
        try await TestApp.run { app in
            let session = try await loadedSession(app)
            let single = try await app.post(session, "chat", #"{"type":"dance"}"#)
            #expect(single.status == 422)
            #expect(single.problemFields == ["type"])
            #expect(try single.json["allowed"].strings == [
                "appear", "addChat", "create", "openChat", "send", "userRead", "back", "appResignActive",
                "appBecomeActive", "notificationTap", "removeContact", "blockContact", "unblockContact",
            ])
            let batch = try await app.post(session, "chat", #"[{"type":"addChat"},{"type":"dance"}]"#)
            #expect(batch.status == 422)
            #expect(batch.problemFields == ["[1].type"])
            let login = try await app.post(session, "login", #"{"type":"send","text":"x"}"#)
            #expect(try login.json["allowed"].strings == ["setUsername", "setPassword", "login"])
        }
    }

    /// A value outside an enum field's cases names the field and lists the cases, as an unknown type lists the
    /// types: the cases the OpenAPI document gives as the field's `enum`, from the type itself.
    @Test func anEnumFieldsValueOutsideItsCasesIs422ListingThem() async throws {
        let features = try HostedFeatures(TestApp.seedFeatures + [RetroBoard.registration], settings: FixedFeatureSettings())
        try await TestApp.run({ $0.features = features }) { app in
            let session = try await app.createSession(body: #"{"features":["retro"]}"#)
            let single = try await app.post(session, "retro", #"{"type":"addCard","text":"Cake","column":"nowhere"}"#)
            #expect(single.status == 422)
            #expect(single.header("Content-Type") == "application/problem+json")
            #expect(single.problemFields == ["column"])
            #expect(try single.json["allowed"].strings == ["wentWell", "toImprove", "actions"])
            #expect(
                try single.json["detail"].string
                    == "The event field 'column' must be one of wentWell, toImprove, actions, not 'nowhere'.")
            let batch = try await app.post(
                session, "retro",
                #"[{"type":"addCard","text":"Cake","column":"wentWell"},{"type":"addCard","text":"Tea","column":"later"}]"#)
            #expect(batch.status == 422)
            #expect(batch.problemFields == ["[1].column"])
            #expect(try batch.json["allowed"].strings == ["wentWell", "toImprove", "actions"])
            let schemas = try await app.request("GET", "/openapi.json").json["components"]["schemas"]
            #expect(schemas["RetroAddCardEvent"]["properties"]["column"]["enum"].strings == ["wentWell", "toImprove", "actions"])
            #expect(try await app.post(session, "retro", #"{"type":"addCard","text":"Cake","column":"actions"}"#).status == 202)
        }
    }

    @Test(arguments: [
        (#"{"type":"send"}"#, "text"),
        (#"{"text":"hi"}"#, "type"),
        (#"{"type":"send","text":42}"#, "text"),
        (#"{"type":7}"#, "type"),
        (#"{"type":"send","txt":"hi"}"#, "txt"),
        (#"{"type":"addChat","contact":"Ann"}"#, "contact"),
        (#"{"type":"create","contact":null}"#, "contact"),
        (#"{"type":"addChat","id":5}"#, "id"),
        (#"[{"type":"addChat"},{"type":"openChat"}]"#, "[1].contact"),
        (#"[{"type":"addChat"},7]"#, "[1]"),
    ])
    func invalidEventIs422NamingTheField(body: String, field: String) async throws {
        try await TestApp.run { app in
            let session = try await loadedSession(app)
            let response = try await app.post(session, "chat", body)
            #expect(response.status == 422, "\(body)")
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.problemFields == [field], "\(body)")
        }
    }

    @Test func oneBadEventRejectsTheWholeBatch() async throws {
        try await TestApp.run { app in
            let session = try await loadedSession(app)
            let before = try await app.snapshot(session)
            let response = try await app.post(
                session, "chat", #"[{"type":"addChat"},{"type":"create","contact":"Ann"},{"type":"send"}]"#)
            #expect(response.status == 422)
            #expect(response.problemFields == ["[2].text"])
            let after = try await app.snapshot(session)
            #expect(after["version"].int == before["version"].int)
            #expect(after.screens == ["chatList"])
        }
    }

    @Test func idempotencyKeyRepeatGetsTheFirstAnswerAndAppliesOnce() async throws {
        try await TestApp.run { app in
            let session = try await loadedSession(app)
            let send = #"{"type":"send","contact":"John","text":"Only once"}"#
            let first = try await app.post(session, "chat", send, headers: [("Idempotency-Key", "k-1")])
            #expect(first.status == 202)
            _ = try await app.send(session, "chat", #"{"type":"addChat"}"#)  // the version moves on meanwhile
            let repeated = try await app.post(session, "chat", send, headers: [("Idempotency-Key", "k-1")])
            #expect(repeated.status == 202)
            #expect(repeated.body == first.body)
            try await app.send(session, "chat", #"[{"type":"back"},{"type":"openChat","contact":"John"}]"#)
            let chat = try await app.snapshot(session)
            #expect(chat.messages(of: "John").filter { $0["message"].string == "Only once" }.count == 1)
            let bad = try await app.post(session, "chat", send, headers: [("Idempotency-Key", "has space")])
            #expect(bad.status == 400)
            #expect(bad.problemFields == ["Idempotency-Key"])
        }
    }

    /// The IETF draft's binding: a key belongs to one request (session, method, path, body). Before, a key used on
    /// /login/events and then on /person/events returned login's answer and dropped the person event silently.
    @Test func aKeyIsBoundToItsRequest() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let login = #"{"type":"setUsername","value":"ann"}"#
            let first = try await app.post(session, "login", login, headers: [("Idempotency-Key", "k1")])
            #expect(first.status == 202)
            #expect(first.header("Idempotent-Replayed") == nil)
            let replay = try await app.post(session, "login", login, headers: [("Idempotency-Key", "k1")])
            #expect(replay.status == 202)
            #expect(replay.body == first.body)
            #expect(replay.header("Idempotent-Replayed") == "true")
            let person = #"{"type":"setPerson","firstName":"Ada","lastName":"L","salutation":"Ms.","birthdate":"1815-12-10"}"#
            let otherPath = try await app.post(session, "person", person, headers: [("Idempotency-Key", "k1")])
            #expect(otherPath.status == 422)
            #expect(otherPath.header("Content-Type") == "application/problem+json")
            let otherBody = try await app.post(
                session, "login", #"{"type":"setUsername","value":"bob"}"#, headers: [("Idempotency-Key", "k1")])
            #expect(otherBody.status == 422)
            #expect(try await app.snapshot(session, "login")["username"].string == "ann", "neither reuse applied anything")
            #expect(try await app.snapshot(session, "person")["firstName"].string != "Ada")
        }
    }

    @Test func eventIDDuplicatesAreNotReapplied() async throws {
        try await TestApp.run { app in
            let session = try await loadedSession(app)
            let send = #"{"type":"send","contact":"John","text":"Once by id","id":"e-1"}"#
            let first = try await app.post(session, "chat", send)
            #expect(first.status == 202)
            let version = try #require(try first.json["version"].int)
            let again = try await app.post(session, "chat", send)
            #expect(again.status == 202)
            #expect(try again.json["version"].int == version, "nothing applied, so the version stays")
            let batch = try await app.post(
                session, "chat", #"[\#(send),{"type":"openChat","contact":"John","id":"e-2"}]"#)
            #expect(try batch.json["accepted"].int == 2)
            let chat = try await app.snapshot(session)
            #expect(chat.messages(of: "John").filter { $0["message"].string == "Once by id" }.count == 1)
        }
    }

    @Test func eventIDRepeatedInsideOneBatchIsAppliedOnce() async throws {
        try await TestApp.run { app in
            let session = try await loadedSession(app)
            let send = #"{"type":"send","contact":"John","text":"Twice in one batch","id":"dup"}"#
            let response = try await app.post(session, "chat", "[\(send),\(send),{\"type\":\"openChat\",\"contact\":\"John\"}]")
            #expect(response.status == 202)
            #expect(try response.json["accepted"].int == 3)
            let chat = try await app.snapshot(session)
            #expect(chat.messages(of: "John").filter { $0["message"].string == "Twice in one batch" }.count == 1)
        }
    }

    @Test func domainRefusalIsStateNotAnError() async throws {
        try await TestApp.run { app in
            let session = try await loadedSession(app)
            #expect(try await app.post(session, "chat", #"{"type":"addChat"}"#).status == 202)
            let response = try await app.post(session, "chat", #"{"type":"create","contact":""}"#)
            #expect(response.status == 202)
            let create = try await app.snapshot(session)["createChat"]
            #expect(create["error"].string == "Please provide a contact name")
            #expect(create["hideError"].bool == false)
            #expect(create["enableCreate"].bool == true)
        }
    }

    @Test func unknownFeatureEventsAre404() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession(body: #"{"features":["chat"]}"#)
            let response = try await app.post(session, "login", #"{"type":"login"}"#)
            #expect(response.status == 404)
            #expect(try response.json["available"].strings == ["chat"])
            #expect(try await app.post(session, "weather2", "{}").status == 404)
            let anonymous = try await app.request("POST", session.path("chat/events"), body: #"{"type":"addChat"}"#)
            #expect(anonymous.status == 401)
        }
    }
}
