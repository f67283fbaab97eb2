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

/// API.md "Live updates": `GET /v1/sessions/{id}/stream` as server-sent events, read incrementally off the wire.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct StreamHTTPTests {
    /// Opens a stream, checks its head, and reads the `retry:` frame and `initial` snapshot frames.
    static func open(
        _ app: TestApp, _ session: TestSession, query: String = "", headers: [(String, String)] = [], initial: Int,
        receiveBuffer: Int32? = nil
    ) async throws -> (reader: SSEReader, frames: [SSEReader.Frame]) {
        let reader = try SSEReader(
            port: app.port, path: session.path("stream") + query, token: session.token, headers: headers,
            receiveBuffer: receiveBuffer)
        let head = try await reader.head()
        try #require(head.status == 200, "\(head)")
        let retry = try await reader.next()
        #expect(retry.retry == "1000")
        #expect(retry.event == nil && retry.data == nil)
        var frames: [SSEReader.Frame] = []
        for _ in 0..<initial { frames.append(try await reader.next()) }
        return (reader, frames)
    }

    @Test func connectSendsRetryThenOneEventPerFeature() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()  // every feature, weather too
            app.advance(by: .milliseconds(500))
            let reader = try SSEReader(port: app.port, path: session.path("stream"), token: session.token)
            let head = try await reader.head()
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream")
            #expect(head.header("Transfer-Encoding") == "chunked")
            #expect(head.header("Cache-Control") == "private, no-cache")
            #expect(try await reader.next().retry == "1000")
            var frames: [SSEReader.Frame] = []
            for _ in TestApp.allFeatures { frames.append(try await reader.next()) }
            #expect(Set(frames.compactMap(\.event)) == Set(TestApp.allFeatures))
            for frame in frames {
                #expect(frame.id.flatMap { Int($0) } != nil, "\(frame)")
                #expect(frame.json["feature"].string == frame.event)
                let snapshot = try await app.snapshot(session, frame.event ?? "")
                #expect((frame.json["version"].int ?? .max) <= (snapshot["version"].int ?? 0))
            }
            let ids = frames.compactMap { $0.id.flatMap { Int($0) } }
            #expect(ids == ids.sorted(), "oldest change first")
        }
    }

    /// Login and person have not changed since the session began (both at sequence 0): they come in the order the
    /// app registered its features, on every connect and in every process (the README shows this dump).
    @Test func featuresOfOneSequenceComeInTheSessionsOrder() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession(body: #"{"features":["person","login"]}"#)
            let (_, frames) = try await Self.open(app, session, initial: 2)
            #expect(frames.map(\.id) == ["0", "0"])
            #expect(frames.map(\.event) == ["login", "person"])
        }
    }

    @Test func aQuietSessionStreamsNothingUntilAChange() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let (reader, initial) = try await Self.open(app, session, initial: 3)
            #expect(Set(initial.compactMap(\.event)) == ["chat", "login", "person"])
            for frame in initial {
                #expect(frame.json["version"].int == (try await app.snapshot(session, frame.event ?? ""))["version"].int)
            }
            #expect(try await reader.staysQuiet(for: .milliseconds(300)), "nothing more until a change")
        }
    }

    @Test func aPostedEventProducesANewChatFrame() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let (reader, initial) = try await Self.open(app, session, initial: 3)
            let lastID = initial.compactMap { $0.id.flatMap { Int($0) } }.max() ?? 0
            let version = try await app.send(session, "chat", #"{"type":"addChat"}"#)
            let frame = try await reader.next()
            #expect(frame.event == "chat")
            #expect((frame.id.flatMap { Int($0) } ?? 0) > lastID)
            #expect(frame.json["version"].int == version)
            #expect(frame.json.screens == ["chatList", "createChat"])
            // A timer's change streams too.
            app.advance(by: .milliseconds(500))
            let loaded = try await reader.next()
            #expect(loaded.event == "chat")
            #expect(loaded.json["chatList"]["chats"][0]["contact"].string == "John")
            #expect((loaded.id.flatMap { Int($0) } ?? 0) > (frame.id.flatMap { Int($0) } ?? 0))
            // The frame carries exactly the bytes a GET answers.
            let get = try await app.request("GET", session.path("chat"), token: session.token)
            #expect(loaded.data == get.text)
        }
    }

    @Test func lastEventIDResumesWithOnlyWhatChangedSince() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let (first, initial) = try await Self.open(app, session, initial: 3)
            let lastID = try #require(initial.last?.id)
            // Up to date: nothing until a change.
            let (resumed, none) = try await Self.open(app, session, headers: [("Last-Event-ID", lastID)], initial: 0)
            #expect(none.isEmpty)
            #expect(try await resumed.staysQuiet(for: .milliseconds(300)))
            try await app.send(session, "login", #"{"type":"setPassword","value":"1234567"}"#)
            #expect(try await resumed.next().event == "login")
            #expect(try await first.next().event == "login")
            // Reconnecting with the id from before that change gets only login.
            let (behind, missed) = try await Self.open(app, session, headers: [("Last-Event-ID", lastID)], initial: 1)
            #expect(missed.map(\.event) == ["login"])
            #expect(try await behind.staysQuiet(for: .milliseconds(300)))
        }
    }

    @Test func featuresQueryFilters() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let (reader, initial) = try await Self.open(app, session, query: "?features=chat", initial: 1)
            #expect(initial.map(\.event) == ["chat"])
            try await app.send(session, "login", #"{"type":"setPassword","value":"1234567"}"#)
            #expect(try await reader.staysQuiet(for: .milliseconds(300)), "login is filtered out")
            try await app.send(session, "chat", #"{"type":"addChat"}"#)
            #expect(try await reader.next().event == "chat")
            let (both, frames) = try await Self.open(app, session, query: "?features=login,person", initial: 2)
            #expect(Set(frames.compactMap(\.event)) == ["login", "person"])
            #expect(try await both.staysQuiet(for: .milliseconds(200)))
        }
    }

    @Test(arguments: ["?features=chat,radio", "?features=", "?features=,"])
    func badFeaturesQueryIs400(query: String) async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let response = try await app.request("GET", session.path("stream") + query, token: session.token)
            #expect(response.status == 400, "\(query)")
            #expect(response.problemFields == ["features"])
        }
    }

    @Test func streamNeedsTheSessionsToken() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let other = try await app.createQuietSession()
            #expect(try await app.request("GET", session.path("stream")).status == 401)
            #expect(try await app.request("GET", session.path("stream"), token: other.token).status == 404)
        }
    }

    @Test func heartbeatCommentArrivesWhenIdle() async throws {
        try await TestApp.run({ $0.streams.heartbeat = .milliseconds(200) }) { app in
            let session = try await app.createQuietSession()
            let (reader, _) = try await Self.open(app, session, initial: 3)
            let frame = try await reader.next()
            #expect(frame.comment == "keepalive")
            #expect(frame.event == nil && frame.data == nil)
            try await app.send(session, "chat", #"{"type":"addChat"}"#)
            let after = try await reader.frames(until: { $0.event != nil })
            #expect(after.last?.event == "chat", "changes still stream between heartbeats")
        }
    }

    /// A page that only listens still uses its session: each heartbeat counts as use, so it does not expire.
    @Test func anOpenStreamKeepsItsSessionAlive() async throws {
        try await TestApp.run({
            $0.streams.heartbeat = .milliseconds(100)
            $0.sessions.idleTTL = .seconds(60)
        }) { app in
            let session = try await app.createQuietSession()
            let (reader, _) = try await Self.open(app, session, initial: 3)
            for _ in 0..<3 {
                app.advance(by: .seconds(40))  // 120 s in all, twice the idle TTL
                // A heartbeat after the advance: the session is touched at the advanced time. The first one read
                // may have been on the wire before the advance; the second was surely written after it.
                for _ in 0..<2 {
                    _ = try await reader.frames(until: { $0.comment == "keepalive" })
                }
            }
            #expect(try await app.request("GET", session.path(), token: session.token).status == 200)
        }
    }

    @Test func stalledReaderGetsTheNewestSnapshotAndFewFrames() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            app.advance(by: .milliseconds(500))
            try await app.send(session, "chat", #"{"type":"openChat","contact":"John"}"#)
            // The socket's buffers stay at their defaults: Linux reopens a window shrunk by a tiny SO_RCVBUF at
            // a few KB per 200 ms, which would measure the kernel, not the server. The stall is real anyway:
            // 300 changes whose snapshots grow by 3 KB each are ≈ 140 MB, and the buffers hold a few MB.
            let (reader, _) = try await Self.open(app, session, query: "?features=chat", initial: 1)
            let text = String(repeating: "z", count: 3000)
            var version = 0
            for index in 0..<300 {
                version = try await app.send(session, "chat", #"{"type":"send","text":"\#(index) \#(text)"}"#)
            }
            #expect(try await app.request("GET", "/healthz").status == 200, "the server keeps serving")
            #expect(try await app.snapshot(session, "login")["feature"].string == "login")
            let frames = try await reader.frames(until: { $0.json["version"].int == version }, timeout: .seconds(30))
            #expect(frames.last?.json.messages(of: "John").count == 301, "the newest snapshot: John's greeting + 300 sent")
            // Keepalive comments may come between snapshots when the run is slow: only snapshot frames count.
            let snapshots = frames.filter { $0.comment == nil }
            #expect(snapshots.count < 150, "collapsed: \(snapshots.count) frames for 300 changes")
            let ids = snapshots.compactMap { $0.id.flatMap { Int($0) } }
            #expect(ids.count == snapshots.count && zip(ids, ids.dropFirst()).allSatisfy(<), "each change once, in order")
        }
    }

    @Test func serverShutdownEndsTheStreamCleanly() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let (reader, _) = try await Self.open(app, session, initial: 3)
            app.server.shutdown()
            let (frames, closed) = try await reader.readToEnd()
            #expect(frames.allSatisfy { $0.event == nil }, "no snapshot after shutdown began: \(frames)")
            #expect(reader.sawLastChunk, "the body ends with the terminating chunk")
            #expect(closed, "then the connection closes")
        }
    }

    /// At once: with a heartbeat ten minutes away, only the session's close can end the streams within the read's
    /// minute.
    @Test func deletingTheSessionEndsItsStreams() async throws {
        try await TestApp.run({ $0.streams.heartbeat = .seconds(600) }) { app in
            let session = try await app.createQuietSession()
            let (reader, _) = try await Self.open(app, session, initial: 3)
            #expect(try await app.request("DELETE", session.path(), token: session.token).status == 204)
            let (frames, _) = try await reader.readToEnd(waitForClose: false)
            // The stream says why it ends, once, then ends.
            #expect(frames.compactMap(\.event) == ["ended"])
            #expect(frames.last?.json["reason"].string == "deleted")
            #expect(reader.sawLastChunk)
        }
    }
}

extension StreamHTTPTests {
    @Test func aChangeRacingTheHeartbeatIsNeverLost() async throws {
        try await TestApp.run({ $0.streams.heartbeat = .milliseconds(1) }) { app in
            let session = try await app.createQuietSession()
            let (reader, _) = try await Self.open(app, session, query: "?features=login", initial: 1)
            for index in 0..<1000 {
                let version = try await app.send(session, "login", #"{"type":"setUsername","value":"user\#(index)"}"#)
                let frames = try await reader.frames(until: { $0.json["version"].int == version })
                #expect(frames.last?.json["username"].string == "user\(index)")
            }
        }
    }
}
