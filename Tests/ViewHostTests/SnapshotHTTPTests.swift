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

/// API.md "Snapshots (read)" over loopback: the chat snapshot's shape, ETag / If-None-Match / 304, long poll
/// with `?wait=`, HEAD, and unknown features.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct SnapshotHTTPTests {
    @Test func chatSnapshotHasTheDocumentedShape() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            app.advance(by: .milliseconds(500))
            let response = try await app.request("GET", session.path("chat"), token: session.token)
            #expect(response.status == 200)
            let chat = try response.json
            let version = try #require(chat["version"].int)
            #expect(response.header("ETag") == "\"\(version)\"")
            #expect(response.header("Cache-Control") == "private, no-cache")
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(chat["feature"].string == "chat")
            #expect(chat.keys == [
                "actions", "badge", "chatList", "conversations", "createChat", "feature", "navigation", "notifications",
                "version",
            ])
            #expect(chat.screens == ["chatList"])
            #expect(chat["createChat"].isNull)
            #expect(chat["chatList"]["title"].string == "Chats")
            let events = session.path("chat/events")
            let addChat = chat["chatList"]["actions"]["addChat"]
            #expect(addChat["method"].string == "POST")
            #expect(addChat["href"].string == events)
            #expect(addChat["body"]["type"].string == "addChat")
            let itemTapped = chat["chatList"]["chats"][0]["actions"]["itemTapped"]
            #expect(itemTapped["href"].string == events)
            #expect(itemTapped["body"]["type"].string == "openChat")
            #expect(itemTapped["body"]["contact"].string == "John")
            #expect(chat["actions"]["back"]["enabled"].bool == false, "only the chat list is on the stack")
        }
    }

    @Test func equalVersionsAreByteIdentical() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            app.advance(by: .milliseconds(500))
            let first = try await app.request("GET", session.path("chat"), token: session.token)
            let second = try await app.request("GET", session.path("chat"), token: session.token)
            #expect(first.header("ETag") == second.header("ETag"))
            #expect(first.body == second.body)
            try await app.send(session, "chat", #"{"type":"addChat"}"#)
            let third = try await app.request("GET", session.path("chat"), token: session.token)
            #expect(third.header("ETag") != first.header("ETag"))
            #expect(try third.json["version"].int == (try first.json["version"].int ?? 0) + 1)
        }
    }

    @Test func ifNoneMatchWithTheCurrentTagIs304() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            let current = try await app.request("GET", session.path("chat"), token: session.token)
            let tag = try #require(current.header("ETag"))
            for header in [tag, "W/\(tag)", "\"999\", \(tag)", "*", "\"999\",W/\(tag)"] {
                let response = try await app.request(
                    "GET", session.path("chat"), token: session.token, headers: [("If-None-Match", header)])
                #expect(response.status == 304, "If-None-Match: \(header)")
                #expect(response.body.isEmpty)
                #expect(response.header("ETag") == tag)
            }
            let stale = try await app.request(
                "GET", session.path("chat"), token: session.token, headers: [("If-None-Match", "\"999\"")])
            #expect(stale.status == 200)
            #expect(stale.body == current.body)
        }
    }

    @Test func unknownFeatureIs404ListingTheAvailableOnes() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            let response = try await app.request("GET", session.path("radio"), token: session.token)
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try Set(response.json["available"].strings) == Set(TestApp.allFeatures))
        }
    }

    @Test func longPollIsHeldUntilAnotherClientChangesTheFeature() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            let current = try await app.request("GET", session.path("chat"), token: session.token)
            let tag = try #require(current.header("ETag"))
            let poll = try app.send(
                "GET", session.path("chat") + "?wait=60", token: session.token, headers: [("If-None-Match", tag)])
            await #expect(throws: HTTPTestClient.ClientError.self, "held: no answer yet") {
                try await poll.readResponse(timeout: .milliseconds(300))
            }
            let version = try await app.send(session, "chat", #"{"type":"addChat"}"#)
            let answer = try await poll.readResponse()
            #expect(answer.status == 200)
            #expect(answer.header("ETag") == "\"\(version)\"")
            #expect(try answer.json["version"].int == version)
            #expect(try answer.json.screens == ["chatList", "createChat"])
        }
    }

    @Test func longPollIsAnsweredByATimerToo() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            let loading = try await app.snapshot(session)
            #expect(loading["chatList"]["showSpinner"].bool == true)
            let poll = try app.send(
                "GET", session.path("chat") + "?wait=60", token: session.token,
                headers: [("If-None-Match", "\"\(loading["version"].int ?? 0)\"")])
            await #expect(throws: HTTPTestClient.ClientError.self) { try await poll.readResponse(timeout: .milliseconds(200)) }
            app.advance(by: .milliseconds(500))
            let answer = try await poll.readResponse()
            #expect(answer.status == 200)
            #expect(try answer.json["chatList"]["chats"][0]["contact"].string == "John")
        }
    }

    @Test func longPollWithoutAChangeEndsWith304() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            let tag = try #require(try await app.request("GET", session.path("chat"), token: session.token).header("ETag"))
            let started = ContinuousClock.now
            let answer = try await app.request(
                "GET", session.path("chat") + "?wait=0.3", token: session.token, headers: [("If-None-Match", tag)])
            #expect(answer.status == 304)
            #expect(answer.header("ETag") == tag)
            #expect(ContinuousClock.now - started >= .milliseconds(250), "it waited")
            // A stale tag is answered at once, wait or not: before the read's 30 s, where the wait is 60 s.
            let stale = try await app.request(
                "GET", session.path("chat") + "?wait=60", token: session.token, headers: [("If-None-Match", "\"0\"")],
                timeout: .seconds(30))
            #expect(stale.status == 200)
        }
    }

    @Test(arguments: ["0", "61", "abc", "-1", "nan", "inf", ""])
    func badWaitIs400NamingWait(wait: String) async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            let response = try await app.request(
                "GET", session.path("chat") + "?wait=\(wait)", token: session.token, headers: [("If-None-Match", "*")])
            #expect(response.status == 400, "wait=\(wait)")
            #expect(response.problemFields == ["wait"])
        }
    }

    @Test func headAnswersWithTheHeadersOnly() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            let get = try await app.request("GET", session.path("chat"), token: session.token)
            let head = try await app.request("HEAD", session.path("chat"), token: session.token)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("ETag") == get.header("ETag"))
            #expect(head.header("Content-Length") == String(get.body.count))
            let client = try HTTPTestClient(port: app.port)
            try client.send(
                "HEAD \(session.path("chat")) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(session.token)\r\n\r\n"
                    + "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(try await client.readResponse(headRequest: true).status == 200)
            #expect(try await client.readResponse().status == 200, "no stray body bytes after the HEAD answer")
        }
    }

    @Test func everyFeatureHasASnapshot() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()
            for feature in TestApp.allFeatures {
                let snapshot = try await app.snapshot(session, feature)
                #expect(snapshot["feature"].string == feature)
                #expect(snapshot["version"].int != nil)
            }
        }
    }
}
