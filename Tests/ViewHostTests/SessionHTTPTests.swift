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

/// API.md "Sessions" over loopback: creation and its options, reading, deleting, authentication (401/404/410),
/// idle expiry on the app's own clock, and the session cap.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct SessionHTTPTests {
    @Test func createAnswers201WithLocationCookieAndLinks() async throws {
        try await TestApp.run { app in
            let response = try await app.request("POST", "/v1/sessions")
            #expect(response.status == 201)
            let json = try response.json
            let id = try #require(json["id"].string)
            let token = try #require(json["token"].string)
            #expect(response.header("Location") == "/v1/sessions/\(id)")
            #expect(
                response.headerValues("Set-Cookie") == [
                    "viewhost_session_\(id)=\(token); HttpOnly; SameSite=Strict; Path=/v1/sessions/\(id)",
                    "viewhost_held_\(id)=1; SameSite=Strict; Path=/",
                ])
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            // The manual clock starts at 2026-11-23 14:00 UTC; the default idle TTL is 30 minutes.
            #expect(json["expiresAt"].string == "2026-11-23T14:30:00Z")
            #expect(json["links"].keys == (TestApp.allFeatures + ["log", "stream"]).sorted())
            for name in json["links"].keys {
                #expect(json["links"][name].string == "/v1/sessions/\(id)/\(name)")
            }
        }
    }

    @Test func idsAndTokensAreDistinctAndLong() async throws {
        try await TestApp.run { app in
            var seen = Set<String>()
            for _ in 0..<20 {
                let session = try await app.createSession()
                #expect(session.id.count >= 22, "128 bits need at least 22 base64url characters")
                #expect(session.token.count >= 22)
                #expect(session.id != session.token)
                #expect(seen.insert(session.id).inserted && seen.insert(session.token).inserted)
            }
        }
    }

    @Test func optionsAreHonoured() async throws {
        try await TestApp.run { app in
            let response = try await app.request(
                "POST", "/v1/sessions", body: #"{"features":["chat","login"],"timeZone":"Europe/Tallinn","locale":"zh-Hans"}"#)
            #expect(response.status == 201)
            #expect(try response.json["links"].keys == ["chat", "log", "login", "stream"])
            let session = TestSession(id: try #require(try response.json["id"].string), token: try #require(try response.json["token"].string))
            let person = try await app.request("GET", session.path("person"), token: session.token)
            #expect(person.status == 404)
            #expect(try person.json["available"].strings == ["chat", "login"])
            // Time zone: John's message (sent 500 s before the 0.5 s load) in Tallinn, UTC+2 in November.
            app.advance(by: .milliseconds(500))
            let chat = try await app.snapshot(session)
            #expect(chat["chatList"]["chats"][0]["lastMessageDate"].string == "23-11-2026 15:51")
            // Locale: the login texts are Chinese.
            let login = try await app.snapshot(session, "login")
            #expect(login["labels"]["login"].string == "登 录")
        }
    }

    @Test(arguments: [
        (#"{"features":[]}"#, "features"),
        (#"{"features":["chat","radio"]}"#, "features[1]"),
        (#"{"features":"chat"}"#, "features"),
        (#"{"timeZone":"Mars/Olympus"}"#, "timeZone"),
        (#"{"timeZone":7}"#, "timeZone"),
        (#"{"locale":"en US!"}"#, "locale"),
        (#"{"colour":"blue"}"#, "colour"),
        (#"["chat"]"#, "body"),
    ])
    func invalidOptionIs422NamingTheField(body: String, field: String) async throws {
        try await TestApp.run { app in
            let response = try await app.request("POST", "/v1/sessions", body: body)
            #expect(response.status == 422, "\(response)")
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.problemFields == [field])
        }
    }

    @Test func nonJSONBodyIs415AndMalformedJSONIs400() async throws {
        try await TestApp.run { app in
            let form = try await app.request("POST", "/v1/sessions", body: "features=chat", contentType: "text/plain")
            #expect(form.status == 415)
            #expect(form.header("Content-Type") == "application/problem+json")
            let malformed = try await app.request("POST", "/v1/sessions", body: #"{"features":["chat""#)
            #expect(malformed.status == 400)
            #expect(try malformed.json["status"].int == 400)
            let empty = try await app.request("POST", "/v1/sessions", body: "", contentType: "text/plain")
            #expect(empty.status == 201, "no body at all means the defaults")
        }
    }

    @Test func getDescribesTheSession() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            app.advance(by: .seconds(10))
            let response = try await app.request("GET", session.path(), token: session.token)
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "private, no-cache")
            let json = try response.json
            #expect(json.keys == ["createdAt", "expiresAt", "features", "id"])
            #expect(json["id"].string == session.id)
            #expect(json["createdAt"].string == "2026-11-23T14:00:00Z")
            #expect(json["expiresAt"].string == "2026-11-23T14:30:10Z", "a request moves the idle expiry")
            #expect(json["features"].keys == TestApp.allFeatures)
            #expect((json["features"]["chat"]["version"].int ?? 0) >= 2, "loading, then John's chat")
        }
    }

    @Test func deleteAnswers204ThenTheSessionIsGone() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            let deleted = try await app.request("DELETE", session.path(), token: session.token)
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            for path in [session.path(), session.path("chat"), session.path("log")] {
                #expect(try await app.request("GET", path, token: session.token).status == 404)
            }
            #expect(try await app.request("DELETE", session.path(), token: session.token).status == 404)
        }
    }

    @Test func authentication() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            let other = try await app.createSession()
            let missing = try await app.request("GET", session.path("chat"))
            #expect(missing.status == 401)
            #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(missing.header("Content-Type") == "application/problem+json")
            let foreign = try await app.request("GET", session.path("chat"), token: other.token)
            #expect(foreign.status == 404)
            let unknown = try await app.request("GET", "/v1/sessions/no-such-session/chat", token: session.token)
            #expect(unknown.status == 404)
            #expect(foreign.body == unknown.body, "a foreign token and an unknown id are indistinguishable")
            let wrong = try await app.request("GET", session.path("chat"), token: session.token + "x")
            #expect(wrong.status == 404)
            let cookie = try await app.request(
                "GET", session.path("chat"),
                headers: [("Cookie", "theme=dark; viewhost_session_\(session.id)=\(session.token)")])
            #expect(cookie.status == 200)
            // Another session's cookie is not this session's token: it is not even looked at.
            let othersCookie = try await app.request(
                "GET", session.path("chat"), headers: [("Cookie", "viewhost_session_\(other.id)=\(other.token)")])
            #expect(othersCookie.status == 401)
            let foreignDelete = try await app.request("DELETE", session.path(), token: other.token)
            #expect(foreignDelete.status == 404)
            #expect(try await app.request("GET", session.path(), token: session.token).status == 200)
        }
    }

    /// Issue 41: a browser with two tabs holds two sessions' cookies at once (each scoped to its session's path, and
    /// a browser sends every cookie whose path matches), and each request is answered for its own session. With the
    /// single `viewhost_session` cookie the second session replaced the first one's token, and the first tab got 404.
    @Test func aBrowserHoldsACookieForEachOfItsSessions() async throws {
        try await TestApp.run { app in
            var cookies: [String] = []
            var sessions: [TestSession] = []
            for _ in 0..<2 {
                let response = try await app.request("POST", "/v1/sessions")
                let json = try response.json
                let session = TestSession(
                    id: try #require(json["id"].string), token: try #require(json["token"].string))
                sessions.append(session)
                // What a browser sends back: the pair before the first `;`.
                cookies += response.headerValues("Set-Cookie").compactMap { cookie in
                    cookie.split(separator: ";").first.map(String.init)
                }
            }
            let jar = cookies.joined(separator: "; ")
            for session in sessions {
                let read = try await app.request("GET", session.path(), headers: [("Cookie", jar)])
                #expect(read.status == 200)
                #expect(try read.json["id"].string == session.id)
                let sent = try await app.request(
                    "POST", session.path("login/events"), headers: [("Cookie", jar)],
                    body: #"{"type":"setUsername","value":"tabs"}"#)
                #expect(sent.status == 202)
            }
            // The session's own cookie wins over the single cookie of earlier releases, in either order.
            let legacyFirst =
                "viewhost_session=\(sessions[1].token); viewhost_session_\(sessions[0].id)=\(sessions[0].token)"
            #expect(try await app.request("GET", sessions[0].path(), headers: [("Cookie", legacyFirst)]).status == 200)
        }
    }

    /// A browser of an earlier release holds one `viewhost_session` cookie: it still opens its session, and a
    /// deletion it authenticated clears it; a deletion by a session's own cookie clears that pair only.
    @Test func theSingleCookieOfEarlierReleasesStillWorks() async throws {
        try await TestApp.run { app in
            let old = try await app.createSession()
            let new = try await app.createSession()
            let legacy = ("Cookie", "viewhost_session=\(old.token)")
            #expect(try await app.request("GET", old.path("chat"), headers: [legacy]).status == 200)
            #expect(try await app.request("GET", new.path("chat"), headers: [legacy]).status == 404)
            let deleted = try await app.request(
                "DELETE", new.path(), headers: [("Cookie", "viewhost_session_\(new.id)=\(new.token)")])
            #expect(deleted.status == 204)
            #expect(
                deleted.headerValues("Set-Cookie") == [
                    "viewhost_session_\(new.id)=; HttpOnly; SameSite=Strict; Path=/v1/sessions/\(new.id); Max-Age=0",
                    "viewhost_held_\(new.id)=; SameSite=Strict; Path=/; Max-Age=0",
                ])
            let deletedByLegacy = try await app.request("DELETE", old.path(), headers: [legacy])
            #expect(deletedByLegacy.status == 204)
            #expect(
                deletedByLegacy.headerValues("Set-Cookie").last
                    == "viewhost_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0")
            #expect(deletedByLegacy.headerValues("Set-Cookie").count == 3)
        }
    }

    @Test func idleSessionExpiresWith410ForItsOwnToken() async throws {
        try await TestApp.run({ $0.sessions.idleTTL = .seconds(60) }) { app in
            let session = try await app.createSession()
            let other = try await app.createSession()
            app.advance(by: .seconds(59))
            #expect(try await app.request("GET", session.path("chat"), token: session.token).status == 200)
            app.advance(by: .seconds(61))
            let expired = try await app.request("GET", session.path("chat"), token: session.token)
            #expect(expired.status == 410)
            #expect(expired.header("Content-Type") == "application/problem+json")
            #expect(try await app.request("GET", session.path(), token: session.token).status == 410, "still 410 later")
            #expect(try await app.request("GET", session.path("chat"), token: other.token).status != 410)
            #expect(try await app.request("GET", session.path("chat"), token: "someone-else").status == 404)
        }
    }

    @Test func fullServerAnswers503WithRetryAfter() async throws {
        try await TestApp.run({ $0.sessions.max = 2 }) { app in
            let first = try await app.createSession()
            _ = try await app.createSession()
            let full = try await app.request("POST", "/v1/sessions")
            #expect(full.status == 503)
            #expect(full.header("Retry-After") != nil)
            #expect(full.header("Content-Type") == "application/problem+json")
            #expect(try await app.request("DELETE", first.path(), token: first.token).status == 204)
            #expect(try await app.request("POST", "/v1/sessions").status == 201, "deleting frees a place")
        }
    }

    @Test func expiredSessionsFreeTheirPlace() async throws {
        try await TestApp.run({
            $0.sessions.max = 1
            $0.sessions.idleTTL = .seconds(60)
        }) { app in
            let session = try await app.createSession()
            app.advance(by: .seconds(61))
            #expect(try await app.request("GET", session.path(), token: session.token).status == 410)
            #expect(try await app.request("POST", "/v1/sessions").status == 201)
        }
    }
}
