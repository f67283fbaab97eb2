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

/// The login (seed 002) and person (seed 003) features over HTTP: their snapshots, events, locale and the
/// 422 for an invalid birthdate.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct LoginPersonHTTPTests {
    @Test func loginWalkthrough() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            var login = try await app.snapshot(session, "login")
            #expect(login["feature"].string == "login")
            #expect(login["username"].string == "maruko")
            #expect(login["passwordLength"].int == 4)
            #expect(login["instruction"].string == "*Password must be more than 6 characters")
            #expect(login["loginEnabled"].bool == false)
            #expect(login["actions"]["login"]["enabled"].bool == false)
            #expect(login["actions"]["setPassword"]["href"].string == session.path("login/events"))
            #expect(login["labels"]["login"].string == "Log in")

            try await app.send(session, "login", #"{"type":"setPassword","value":"1234567"}"#)
            login = try await app.snapshot(session, "login")
            #expect(login["passwordLength"].int == 7)
            #expect(login["loginEnabled"].bool == true)
            #expect(login["instruction"].string == "")
            #expect(login["actions"]["login"]["enabled"].bool == true)

            try await app.send(session, "login", #"{"type":"login"}"#)
            login = try await app.snapshot(session, "login")
            #expect(login["instruction"].string == "Login succeeded (*^▽^*)")

            try await app.send(session, "login", #"{"type":"setUsername","value":""}"#)
            login = try await app.snapshot(session, "login")
            #expect(login["instruction"].string == "*Username cannot be empty")
            #expect(login["loginEnabled"].bool == false)
        }
    }

    @Test func loginTextsFollowTheSessionLocale() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession(body: #"{"locale":"zh-Hans"}"#)
            var login = try await app.snapshot(session, "login")
            #expect(login["instruction"].string == "*密码必须超过6个字符")
            #expect(login["labels"]["username"].string == "用户")
            try await app.send(session, "login", #"[{"type":"setPassword","value":"abcdefgh"},{"type":"login"}]"#)
            login = try await app.snapshot(session, "login")
            #expect(login["instruction"].string == "登录成功(*^▽^*)")
        }
    }

    @Test func loginEventsAreChecked() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            let missing = try await app.post(session, "login", #"{"type":"setPassword"}"#)
            #expect(missing.status == 422)
            #expect(missing.problemFields == ["value"])
            let extra = try await app.post(session, "login", #"{"type":"login","value":"x"}"#)
            #expect(extra.status == 422)
            #expect(extra.problemFields == ["value"])
        }
    }

    @Test func personSnapshotAndSetPerson() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            var person = try await app.snapshot(session, "person")
            #expect(person["nameText"].string == "Dr. first last")
            #expect(person["birthdateText"].string == "Thursday January 1, 1970")
            #expect(person["actions"]["setPerson"]["body"]["birthdate"].string == "{birthdate}")

            try await app.send(
                session, "person", #"{"type":"setPerson","firstName":"Ada","lastName":"Lovelace","birthdate":"1815-12-10"}"#)
            person = try await app.snapshot(session, "person")
            #expect(person["nameText"].string == "Ada Lovelace")
            #expect(person["birthdateText"].string == "Sunday December 10, 1815")
            #expect(person["salutation"].isNull)

            try await app.send(
                session, "person",
                #"{"type":"setPerson","salutation":"Ms.","firstName":"Grace","lastName":"Hopper","birthdate":"1906-12-09T12:00:00Z"}"#)
            person = try await app.snapshot(session, "person")
            #expect(person["nameText"].string == "Ms. Grace Hopper")
            #expect(person["birthdateText"].string == "Sunday December 9, 1906")
        }
    }

    @Test(arguments: ["1970-13-01", "1970-02-30", "yesterday", "1970-1-1", "1970-01-01T25:00:00Z"])
    func invalidBirthdateIs422NamingBirthdate(birthdate: String) async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            let before = try await app.snapshot(session, "person")
            let response = try await app.post(
                session, "person", #"{"type":"setPerson","firstName":"A","lastName":"B","birthdate":"\#(birthdate)"}"#)
            #expect(response.status == 422, "\(birthdate)")
            #expect(response.problemFields == ["birthdate"])
            #expect(try await app.snapshot(session, "person")["version"].int == before["version"].int)
        }
    }

    @Test func personWithoutANameIs422() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            let response = try await app.post(session, "person", #"{"type":"setPerson","lastName":"B","birthdate":"1970-01-01"}"#)
            #expect(response.status == 422)
            #expect(response.problemFields == ["firstName"])
        }
    }
}
