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

/// API.md: "sessions never see each other's state". Two sessions on one server, driven through the same
/// scheduler, never share chats, screens, bots, logs or tokens.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct IsolationHTTPTests {
    @Test func eventsToOneSessionNeverChangeAnother() async throws {
        try await TestApp.run { app in
            let a = try await app.createQuietSession()
            let b = try await app.createQuietSession()
            app.advance(by: .milliseconds(500))
            let bBefore = try await app.request("GET", b.path("chat"), token: b.token)
            let bLogBefore = try await app.log(b)
            try await app.send(a, "chat", #"[{"type":"openChat","contact":"John"},{"type":"send","text":"Only A"}]"#)
            try await app.send(a, "chat", #"[{"type":"back"},{"type":"create","contact":"Ann"}]"#)
            try await app.send(a, "login", #"{"type":"setPassword","value":"secret-password"}"#)
            try await app.send(a, "person", #"{"type":"setPerson","firstName":"A","lastName":"B","birthdate":"1990-01-01"}"#)
            app.advance(by: .seconds(20))  // A's bot reads and replies; B has nothing running
            let bAfter = try await app.request("GET", b.path("chat"), token: b.token)
            #expect(bAfter.body == bBefore.body, "B's chat is byte for byte what it was")
            #expect(try await app.log(b).map(\.description) == bLogBefore.map(\.description))
            let bLogin = try await app.snapshot(b, "login")
            #expect(bLogin["passwordLength"].int == 4, "still the initial 1234")
            let bPerson = try await app.snapshot(b, "person")
            #expect(bPerson["firstName"].string != "A")
            let aChat = try await app.snapshot(a)
            #expect(aChat["chatList"]["chats"].array.compactMap { $0["contact"].string } == ["John", "Ann"])
            #expect(try await app.snapshot(b)["chatList"]["chats"].array.count == 1)
        }
    }

    @Test func aTokenOpensOnlyItsOwnSession() async throws {
        try await TestApp.run { app in
            let a = try await app.createQuietSession()
            let b = try await app.createQuietSession()
            for (method, suffix, body) in [
                ("GET", "", nil), ("GET", "chat", nil), ("GET", "log", nil), ("GET", "stream", nil),
                ("POST", "chat/events", #"{"type":"addChat"}"#), ("DELETE", "", nil),
            ] {
                let response = try await app.request(method, b.path(suffix), token: a.token, body: body)
                #expect(response.status == 404, "\(method) \(suffix)")
            }
            #expect(try await app.snapshot(b).screens == ["chatList"], "A's addChat never reached B")
            #expect(try await app.request("GET", b.path(), token: b.token).status == 200, "A could not delete B")
        }
    }

    @Test func sameIdempotencyKeyInTwoSessionsIsTwoRequests() async throws {
        try await TestApp.run { app in
            let a = try await app.createQuietSession()
            let b = try await app.createQuietSession()
            let key = [("Idempotency-Key", "shared-key")]
            #expect(try await app.post(a, "chat", #"{"type":"addChat"}"#, headers: key).status == 202)
            #expect(try await app.post(b, "chat", #"{"type":"addChat"}"#, headers: key).status == 202)
            #expect(try await app.snapshot(a).screens == ["chatList", "createChat"])
            #expect(try await app.snapshot(b).screens == ["chatList", "createChat"])
        }
    }
}
