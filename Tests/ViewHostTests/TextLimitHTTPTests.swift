import Foundation
import Testing
import TestSupport

/// Every string the server keeps is limited in code points and so in UTF-8 bytes, never in grapheme clusters:
/// the combining-mark bomb (`a` and 450,000 U+0301, 900 KB, one "character") gets a 422 naming the field and the
/// limit from every field, and nothing of it is kept (issue 14, finding 1).
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct TextLimitHTTPTests {
    /// One grapheme cluster of 900,001 UTF-8 bytes.
    static let bomb = "a" + String(repeating: "\u{301}", count: 450_000)

    /// Each event body with the bomb in one field, and the field the 422 must name.
    static let events: [(feature: String, body: String, field: String)] = [
        ("chat", #"{"type":"create","contact":"BOMB"}"#, "contact"),
        ("chat", #"{"type":"openChat","contact":"BOMB"}"#, "contact"),
        ("chat", #"{"type":"send","text":"BOMB"}"#, "text"),
        ("chat", #"{"type":"send","text":"Hi","contact":"BOMB"}"#, "contact"),
        ("chat", #"{"type":"userRead","contact":"BOMB"}"#, "contact"),
        ("chat", #"{"type":"notificationTap","contact":"BOMB"}"#, "contact"),
        ("chat", #"{"type":"addChat","id":"BOMB"}"#, "id"),
        ("weather", #"{"type":"changeLocation","location":"BOMB"}"#, "location"),
        ("login", #"{"type":"setUsername","value":"BOMB"}"#, "value"),
        ("login", #"{"type":"setPassword","value":"BOMB"}"#, "value"),
        ("person", #"{"type":"setPerson","salutation":"BOMB","firstName":"A","lastName":"B","birthdate":"1970-01-01"}"#, "salutation"),
        ("person", #"{"type":"setPerson","firstName":"BOMB","lastName":"B","birthdate":"1970-01-01"}"#, "firstName"),
        ("person", #"{"type":"setPerson","firstName":"A","lastName":"BOMB","birthdate":"1970-01-01"}"#, "lastName"),
        ("person", #"{"type":"setPerson","firstName":"A","lastName":"B","birthdate":"BOMB"}"#, "birthdate"),
    ]

    @Test func theBombIsRefusedByEveryEventFieldAndNothingIsKept() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            app.advance(by: .seconds(1))
            try await Self.waitForWeather(app, session)
            let before = try await Self.keptBytes(app, session)
            for (feature, body, field) in Self.events {
                let response = try await app.post(session, feature, body.replacingOccurrences(of: "BOMB", with: Self.bomb))
                #expect(response.status == 422, "\(feature) \(field): \(response.status)")
                let problem = try response.json
                #expect(problem["errors"][0]["field"].string == field, "\(feature) \(field)")
                let message = problem["errors"][0]["message"].string ?? ""
                #expect(message.contains("characters") || message.contains("ASCII"), "\(feature) \(field): \(message)")
                #expect(response.body.count < 4096, "the answer does not echo the bomb")
            }
            #expect(try await Self.keptBytes(app, session) == before)
        }
    }

    @Test func theRefusalNamesTheLimitInCharactersAndBytes() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            app.advance(by: .seconds(1))
            let response = try await app.post(
                session, "chat", #"{"type":"send","text":"\#(Self.bomb)"}"#)
            #expect(response.status == 422)
            #expect(
                try response.json["errors"][0]["message"].string
                    == "is longer than 4000 characters (Unicode code points; at most 16000 UTF-8 bytes)")
            // At the limit exactly, in code points, it is accepted, whatever its grapheme count.
            let atLimit = "a" + String(repeating: "\u{301}", count: 3999)
            #expect(try await app.post(session, "chat", #"{"type":"send","contact":"John","text":"\#(atLimit)"}"#).status == 202)
            let overLimit = atLimit + "\u{301}"
            #expect(try await app.post(session, "chat", #"{"type":"send","contact":"John","text":"\#(overLimit)"}"#).status == 422)
        }
    }

    @Test func theBombIsRefusedInSessionOptionsAndEchoedNames() async throws {
        try await TestApp.run { app in
            for field in ["timeZone", "locale"] {
                let response = try await app.request("POST", "/v1/sessions", body: #"{"\#(field)":"\#(Self.bomb)"}"#)
                #expect(response.status == 422, "\(field)")
                #expect(try response.json["errors"][0]["field"].string == field)
            }
            let session = try await app.createSession()
            // An unknown type or field name is echoed in the 422, cut to a few bytes.
            for body in [#"{"type":"\#(Self.bomb)"}"#, #"{"type":"addChat","\#(Self.bomb)":1}"#] {
                let response = try await app.post(session, "chat", body)
                #expect(response.status == 422)
                #expect(response.body.count < 4096)
            }
        }
    }

    @Test func logSummariesAreCutToBytesOnACodePoint() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            app.advance(by: .seconds(1))
            let text = "a" + String(repeating: "\u{301}", count: 3999)
            try await app.send(session, "chat", #"{"type":"send","contact":"John","text":"\#(text)"}"#)
            let summaries = try await app.log(session).compactMap { $0["summary"].string }
            #expect(summaries.allSatisfy { $0.utf8.count <= 120 + 2 })
            let send = try #require(summaries.first { $0.hasPrefix("contact=John text=") })
            #expect(send == "contact=John text=\"a" + String(repeating: "\u{301}", count: 15) + "…\"")
        }
    }

    @Test func headerAndQueryValuesTheServerReadsAreBounded() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            for query in ["?since=547741433865652142080", "?since=-1", "?since=+5", "?since=", "?since=1e3"] {
                let response = try await app.request("GET", session.path("log") + query, token: session.token)
                #expect(response.status == 400, "\(query)")
            }
            #expect(try await app.request("GET", session.path("log") + "?since=999999999999999999", token: session.token).status == 200)
            for query in ["?features=", "?features=chat,,login", "?features=%20chat", "?features=weather"] {
                let reader = try SSEReader(port: app.port, path: session.path("stream") + query, token: session.token)
                #expect(try await reader.head().status == 400, "\(query)")
            }
            for lastEventID in ["abc", "-1", "1234567890123456789", "1 2"] {
                let reader = try SSEReader(
                    port: app.port, path: session.path("stream"), token: session.token,
                    headers: [("Last-Event-ID", lastEventID)])
                #expect(try await reader.head().status == 400, "\(lastEventID)")
            }
            for key in ["clé", String(repeating: "k", count: 256), "a b"] {
                let response = try await app.post(session, "chat", #"{"type":"addChat"}"#, headers: [("Idempotency-Key", key)])
                #expect(response.status == 400, "\(key)")
            }
            let zone = try await app.request("POST", "/v1/sessions", body: #"{"timeZone":"Mars/Olympus"}"#)
            #expect(zone.status == 422)
            #expect(try await app.request("POST", "/v1/sessions", body: #"{"timeZone":"Europe/Tallinn"}"#).status == 201)
            #expect(try await app.post(session, "chat", #"{"type":"addChat","id":null}"#).status == 202)
            #expect(try await app.post(session, "chat", #"{"type":"addChat","id":"é"}"#).status == 422)
        }
    }

    /// Waits until the weather's start (an effect that finishes on its own time) has loaded, so nothing changes
    /// the session afterwards but the test's own requests.
    private static func waitForWeather(_ app: TestApp, _ session: TestSession) async throws {
        let deadline = TestDeadline.after(.seconds(60))
        while ContinuousClock.now < deadline {
            let events = try await app.log(session).compactMap { $0["event"].string }
            if events.contains("weatherLoaded") || events.contains("weatherFailed") { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the weather did not load")
    }

    /// The bytes of the session's snapshots and log: what the server keeps for it.
    private static func keptBytes(_ app: TestApp, _ session: TestSession) async throws -> [Int] {
        var sizes: [Int] = []
        for suffix in ["chat", "weather", "login", "person", "log"] {
            sizes.append(try await app.request("GET", session.path(suffix), token: session.token).body.count)
        }
        return sizes
    }
}
