import Foundation
import HTTPCore
import Testing
import TestSupport
import ViewHost
import ViewHostJSON

/// Every version addressable, over loopback: a past version as it was served (immutable), `404` before it exists
/// and `410` once it is no longer kept, the versions held and what made each, patches from the version a client
/// holds (a `GET`, a long poll, the event stream with `?patches=1`), and bad input of every kind answered `400`.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(3))))
struct HistoryHTTPTests {
    static func person(_ name: String) -> String {
        #"{"type":"setPerson","firstName":"\#(name)","lastName":"History","birthdate":"1990-01-01"}"#
    }

    /// Sends `count` person changes, reading the snapshot after each: its body by version.
    static func changePerson(_ app: TestApp, _ session: TestSession, count: Int, from start: Int = 0) async throws
        -> [Int: [UInt8]]
    {
        var bodies: [Int: [UInt8]] = [:]
        let first = try await app.request("GET", session.path("person"), token: session.token)
        bodies[try #require(try first.json["version"].int)] = first.body
        for number in start..<(start + count) {
            try await app.send(session, "person", person("n\(number)"))
            let response = try await app.request("GET", session.path("person"), token: session.token)
            bodies[try #require(try response.json["version"].int)] = response.body
        }
        return bodies
    }

    @Test func everyPastVersionIsServedAsItWasAndNeverChanges() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let bodies = try await Self.changePerson(app, session, count: 20)
            for (version, body) in bodies.sorted(by: { $0.key < $1.key }) {
                let response = try await app.request("GET", session.path("person") + "?version=\(version)", token: session.token)
                #expect(response.status == 200, "\(response)")
                #expect(response.body == body, "version \(version)")
                #expect(response.header("ETag") == "\"\(version)\"")
                #expect(response.header("Cache-Control") == "private, max-age=31536000, immutable")
                let again = try await app.request(
                    "GET", session.path("person") + "?version=\(version)", token: session.token,
                    headers: [("If-None-Match", "\"\(version)\"")])
                #expect(again.status == 304)
                #expect(again.header("Cache-Control") == "private, max-age=31536000, immutable")
            }
        }
    }

    @Test func aVersionNotReachedIs404AndOneNoLongerKeptIs410NamingTheOldest() async throws {
        try await TestApp.run({ $0.sessions.historyVersions = 10 }) { app in
            let session = try await app.createQuietSession()
            _ = try await Self.changePerson(app, session, count: 150)
            let latest = try #require(try await app.snapshot(session, "person")["version"].int)
            let future = try await app.request("GET", session.path("person") + "?version=\(latest + 1)", token: session.token)
            #expect(future.status == 404)
            #expect(try future.json["latestVersion"].int == latest)
            let gone = try await app.request("GET", session.path("person") + "?version=1", token: session.token)
            #expect(gone.status == 410, "\(gone)")
            #expect(gone.header("Content-Type") == "application/problem+json")
            let oldest = try #require(try gone.json["oldestVersion"].int)
            #expect(oldest > 1 && oldest <= latest - 10, "\(oldest)")
            #expect(try gone.json["detail"].string?.contains("\(oldest)") == true)
            let held = try await app.request("GET", session.path("person") + "?version=\(oldest)", token: session.token)
            #expect(held.status == 200)
            let older = try await app.request("GET", session.path("person") + "?version=\(oldest - 1)", token: session.token)
            #expect(older.status == 410)
        }
    }

    @Test func badVersionsAre400AndChangeNothing() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            _ = try await Self.changePerson(app, session, count: 2)
            for query in ["0", "-1", "abc", "1.5", "1e3", "+1", "", "%201", "9999999999999999999", "0x10", "1,2"] {
                let response = try await app.request("GET", session.path("person") + "?version=\(query)", token: session.token)
                #expect(response.status == 400, "?version=\(query): \(response)")
                #expect(response.problemFields == ["version"], "?version=\(query)")
            }
            // A past version never changes: a wait beside it waits for nothing.
            let withWait = try await app.request(
                "GET", session.path("person") + "?version=1&wait=30", token: session.token, headers: [("If-None-Match", "\"1\"")])
            #expect(withWait.status == 304)
            // Another session's token, or none: the version of a session one cannot see does not exist.
            let other = try await app.createQuietSession()
            #expect(try await app.request("GET", session.path("person") + "?version=1", token: other.token).status == 404)
            let patchOfAnother = try await app.request(
                "GET", session.path("person"), token: other.token, headers: [("If-None-Match", "\"1\""), Self.acceptPatch])
            #expect(patchOfAnother.status == 404)
            #expect(patchOfAnother.header("Content-Type") == "application/problem+json")
            #expect(try await app.request("GET", session.path("person") + "?version=1").status == 401)
            #expect(try await app.request("GET", session.path("nope") + "?version=1", token: session.token).status == 404)
        }
    }

    @Test func theVersionsHeldSayWhatMadeEach() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            _ = try await Self.changePerson(app, session, count: 3)
            try await app.send(session, "chat", #"{"type":"addChat"}"#)
            let response = try await app.request("GET", session.path("versions"), token: session.token)
            #expect(response.status == 200, "\(response)")
            let logged = Set(try await app.log(session).map { "\($0["seq"].int ?? -1) \($0["event"].string ?? "")" })
            try Self.checkVersions(response.json, logged: logged)
        }
    }

    /// `list` (a `/versions` answer, after three person changes and one chat change) against the data-flow log.
    private static func checkVersions(_ list: JSON, logged: Set<String>) throws {
        let person = list["versions"].array.filter { $0["feature"].string == "person" }
        #expect(person.map { $0["version"].int } == [2, 3, 4])
        #expect(person.allSatisfy { $0["cause"]["source"].string == "client" && $0["cause"]["causedBy"].isNull })
        #expect(person.allSatisfy { $0["cause"]["versionAfter"].int == $0["version"].int && $0["cause"]["at"].string != nil })
        #expect(list["features"]["person"]["oldest"].int == 1)
        #expect(list["features"]["person"]["latest"].int == 4)
        let chat = list["versions"].array.filter { $0["feature"].string == "chat" }
        #expect(chat.last?["cause"]["event"].string == "addChat", "\(chat)")
        let records = list["versions"].array.compactMap { $0["record"].int }
        #expect(records == records.sorted())
        let listed = Set(list["versions"].array.map { "\($0["cause"]["seq"].int ?? -2) \($0["cause"]["event"].string ?? "")" })
        #expect(listed.isSubset(of: logged), "\(listed.subtracting(logged))")
    }

    // MARK: - Patches

    /// `old` with the patch `response` carries applied.
    static func applied(_ response: TestResponse, to old: [UInt8]) throws -> JSONValue {
        let operations = try JSONPatch.operations(JSONParser.parse(response.body, maxDepth: 64))
        return try JSONPatch.apply(operations, to: JSONParser.parse(old, maxDepth: 64))
    }

    static let acceptPatch = ("Accept", "application/json-patch+json")

    @Test func aReadWithTheVersionHeldAndPatchesAcceptedGetsThePatch() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let bodies = try await Self.changePerson(app, session, count: 5)
            let latest = try #require(bodies.keys.max())
            let current = try #require(bodies[latest])
            for base in (latest - 4)..<latest {
                let response = try await app.request(
                    "GET", session.path("person"), token: session.token,
                    headers: [("If-None-Match", "\"\(base)\""), Self.acceptPatch])
                #expect(response.status == 200)
                #expect(response.header("Content-Type") == "application/json-patch+json")
                #expect(response.header("ETag") == "\"\(latest)\"")
                #expect(response.header("Vary")?.contains("Accept") == true)
                let patched = try Self.applied(response, to: try #require(bodies[base]))
                #expect(patched.isEquivalent(to: try JSONParser.parse(current, maxDepth: 64)), "from \(base)")
                #expect(response.body.count < current.count)
                // The patch fails on any other version: it tests the version first.
                #expect(throws: JSONPatch.Failure.self) { _ = try Self.applied(response, to: current) }
            }
            let unchanged = try await app.request(
                "GET", session.path("person"), token: session.token, headers: [("If-None-Match", "\"\(latest)\""), Self.acceptPatch])
            #expect(unchanged.status == 304)
            // A version not held, not reached, or not a version: the whole snapshot.
            for tag in ["\"\(latest + 5)\"", "\"x\"", "W/\"\"", "\"-1\""] {
                let whole = try await app.request(
                    "GET", session.path("person"), token: session.token, headers: [("If-None-Match", tag), Self.acceptPatch])
                #expect(whole.status == 200, "\(tag)")
                #expect(whole.header("Content-Type") == "application/json", "\(tag)")
                #expect(whole.body == current, "\(tag)")
            }
            // Without asking for a patch: the whole snapshot, as before.
            let plain = try await app.request(
                "GET", session.path("person"), token: session.token, headers: [("If-None-Match", "\"\(latest - 1)\"")])
            #expect(plain.header("Content-Type") == "application/json")
            #expect(plain.body == current)
        }
    }

    @Test func aPatchFromAVersionNoLongerKeptIsTheWholeSnapshot() async throws {
        try await TestApp.run({ $0.sessions.historyVersions = 5 }) { app in
            let session = try await app.createQuietSession()
            let bodies = try await Self.changePerson(app, session, count: 150)
            let latest = try #require(bodies.keys.max())
            let whole = try await app.request(
                "GET", session.path("person"), token: session.token, headers: [("If-None-Match", "\"2\""), Self.acceptPatch])
            #expect(whole.status == 200)
            #expect(whole.header("Content-Type") == "application/json")
            #expect(whole.body == bodies[latest])
        }
    }

    @Test func aLongPollWithPatchesAcceptedWakesWithThePatch() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let bodies = try await Self.changePerson(app, session, count: 1)
            let latest = try #require(bodies.keys.max())
            let poll = try app.send(
                "GET", session.path("person") + "?wait=30", token: session.token,
                headers: [("If-None-Match", "\"\(latest)\""), Self.acceptPatch])
            try await app.send(session, "person", Self.person("woken"))
            let response = try await poll.readResponse(timeout: .seconds(30))
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json-patch+json")
            let now = try await app.request("GET", session.path("person"), token: session.token)
            #expect(try Self.applied(response, to: try #require(bodies[latest])).isEquivalent(to: try JSONParser.parse(now.body)))
        }
    }

    @Test func theEventStreamSendsPatchesAfterTheFirstSnapshotEachWithItsBase() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let (reader, frames) = try await StreamHTTPTests.open(app, session, query: "?features=person&patches=1", initial: 1)
            #expect(frames[0].event == "person")
            var held = Array((frames[0].data ?? "").utf8)
            var version = try #require(frames[0].json["version"].int)
            var patches = 0
            for number in 0..<5 {
                try await app.send(session, "person", Self.person("stream\(number)"))
                let frame = try await reader.next()
                // A patch no smaller than the snapshot (the first change, from an empty person) goes whole.
                guard frame.event == "person.patch" else {
                    #expect(frame.event == "person", "\(frame)")
                    held = Array((frame.data ?? "").utf8)
                    version = try #require(frame.json["version"].int)
                    continue
                }
                patches += 1
                #expect(frame.json["base"].int == version)
                #expect(frame.json["feature"].string == "person")
                let data = try JSONParser.parse(Array((frame.data ?? "").utf8), maxDepth: 64)
                let operations = try JSONPatch.operations(try #require(data["patch"]))
                let patched = try JSONPatch.apply(operations, to: JSONParser.parse(held, maxDepth: 64))
                version = try #require(frame.json["version"].int)
                #expect(patched["version"] == .number(Double(version)))
                held = patched.json
            }
            #expect(patches >= 4, "\(patches) of 5 changes came as patches")
            let now = try await app.request("GET", session.path("person"), token: session.token)
            #expect(try JSONParser.parse(held).isEquivalent(to: try JSONParser.parse(now.body)))
            for bad in ["yes", "2", ""] {
                let refused = try await app.request("GET", session.path("stream") + "?patches=\(bad)", token: session.token)
                #expect(refused.status == 400, "patches=\(bad)")
            }
        }
    }
}
