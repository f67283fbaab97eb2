import Foundation
import HTTPCore
import Testing
import TestSupport
@testable import ViewHost
import ViewModelCore

/// The journal export and its import, over loopback between two servers: a session exported from one and imported
/// into the other serves every version, byte for byte (its action links name its new id), and lists the same
/// history; an export needs its session's token; an import that is cut short, reordered, repeated, edited by hand,
/// of the wrong type or too large is refused, and nothing is kept.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(3))))
struct JournalHTTPTests {
    /// A session of every feature that went through a bit of everything: start events, timers, provider answers,
    /// client events in batches, with ids and an idempotency key.
    static func busySession(_ app: TestApp) async throws -> TestSession {
        let session = try await app.createSession()
        app.advance(by: .seconds(1))
        try await app.send(session, "chat", #"{"type":"openChat","contact":"John"}"#)
        for number in 0..<6 {
            try await app.send(session, "chat", #"[{"type":"send","text":"hello \#(number)","id":"m\#(number)"}]"#)
            app.advance(by: .seconds(3))
        }
        try await app.send(session, "weather", #"{"type":"changeLocation","location":"Tallinn"}"#)
        app.advance(by: .seconds(1))
        let keyed = try await app.post(
            session, "person", #"{"type":"setPerson","firstName":"Ada","lastName":"Byron","birthdate":"1815-12-10"}"#,
            headers: [("Idempotency-Key", "person-1")])
        #expect(keyed.status == 202)
        try await app.send(session, "login", #"[{"type":"setUsername","value":"maruko"},{"type":"setPassword","value":"secret"}]"#)
        return session
    }

    static func export(_ app: TestApp, _ session: TestSession) async throws -> [UInt8] {
        let response = try await app.request("GET", session.path("journal"), token: session.token, timeout: .seconds(30))
        try #require(response.status == 200, "\(response)")
        #expect(response.header("Content-Type") == "application/x-ndjson")
        #expect(response.header("Cache-Control") == "no-store")
        return response.body
    }

    static func importJournal(_ app: TestApp, _ body: [UInt8], contentType: String = "application/x-ndjson") async throws
        -> TestResponse
    {
        try await app.request(
            "POST", "/v1/sessions", body: String(decoding: body, as: UTF8.self), contentType: contentType, timeout: .seconds(30))
    }

    /// An end line without its `digest` member.
    static func withoutDigest(_ line: String?) -> String {
        guard let line, var object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return "" }
        object["digest"] = nil
        return (try? JSONSerialization.data(withJSONObject: object, options: .sortedKeys)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func aSessionExportedFromOneServerAndImportedIntoAnotherServesEveryVersionAsItWas() async throws {
        try await TestApp.run { source in
            let session = try await Self.busySession(source)
            let exported = try await Self.export(source, session)
            let versions = try await source.request("GET", session.path("versions"), token: session.token).json
            try await TestApp.run { target in
                let response = try await Self.importJournal(target, exported)
                try #require(response.status == 201, "\(response)")
                let imported = TestSession(
                    id: try #require(try response.json["id"].string), token: try #require(try response.json["token"].string))
                #expect(imported.id != session.id)
                #expect(response.header("Set-Cookie")?.contains(imported.token) == true)
                var compared = 0
                for feature in TestApp.allFeatures {
                    let oldest = try #require(versions["features"][feature]["oldest"].int)
                    let latest = try #require(versions["features"][feature]["latest"].int)
                    for version in oldest...latest {
                        let original = try await source.request(
                            "GET", session.path(feature) + "?version=\(version)", token: session.token)
                        let copy = try await target.request(
                            "GET", imported.path(feature) + "?version=\(version)", token: imported.token)
                        #expect(original.status == 200 && copy.status == 200, "\(feature) \(version)")
                        let expected = String(decoding: original.body, as: UTF8.self)
                            .replacingOccurrences(of: session.id, with: imported.id)
                        #expect(String(decoding: copy.body, as: UTF8.self) == expected, "\(feature) \(version)")
                        #expect(copy.header("ETag") == "\"\(version)\"")
                        compared += 1
                    }
                    let current = try await target.snapshot(imported, feature)
                    #expect(current["version"].int == latest, "\(feature)")
                }
                #expect(compared > 20, "\(compared) versions compared")
                // The same history, listed and exported again: every line but the header (its id and times) and the
                // end line's digest of the lines before it.
                let listed = try await target.request("GET", imported.path("versions"), token: imported.token).json
                #expect(listed["versions"].description == versions["versions"].description)
                let again = Self.lines(try await Self.export(target, imported))
                let first = Self.lines(exported)
                #expect(Array(again.dropFirst().dropLast()) == Array(first.dropFirst().dropLast()))
                #expect(Self.withoutDigest(again.last) == Self.withoutDigest(first.last))
                // And it lives on: an event applies after the imported ones.
                let next = try await target.send(imported, "person", #"{"type":"setPerson","firstName":"Next","lastName":"One","birthdate":"1990-01-01"}"#)
                #expect(next == (versions["features"]["person"]["latest"].int ?? 0) + 1)
            }
        }
    }

    /// A durable import writes when the copy's earliest timer falls due once, with its last record (not with every
    /// record): a store that restarts finds the copy among the sessions with timers exactly when the original is
    /// among them, for a session whose timers are pending at the end and for one whose timers all fired (its first
    /// value, which the import stores first, had one pending).
    @Test func aDurableImportKeepsWhenTheCopysNextTimerIsDue() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-import-due-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await TestApp.run(storeDirectory: root + "/source", storeHistory: 1_000) { source in
            let busy = try await Self.busySession(source)
            let quiet = try await source.createSession(body: #"{"features":["chat"]}"#)
            source.advance(by: .seconds(1))
            try await source.send(quiet, "chat", #"{"type":"openChat","contact":"John"}"#)
            let sourceStorage = try #require(source.app?.registry.storage)
            try await TestApp.run(storeDirectory: root + "/target") { target in
                let targetStorage = try #require(target.app?.registry.storage)
                var pending: [Bool] = []
                for session in [busy, quiet] {
                    let response = try await Self.importJournal(target, try await Self.export(source, session))
                    try #require(response.status == 201, "\(response)")
                    let copy = try #require(try response.json["id"].string)
                    let original = try sourceStorage.sessionsDue(before: .distantFuture, limit: 1000).contains(SessionID(session.id))
                    #expect(try targetStorage.sessionsDue(before: .distantFuture, limit: 1000).contains(SessionID(copy)) == original, "\(session.id)")
                    pending.append(original)
                }
                #expect(pending == [true, false], "the busy session has timers pending and the quiet one has none")
            }
        }
    }

    /// An export longer than a page (256 records) is read a page ahead, its events decoded on another thread while
    /// the page before is written: from the memory store and from SQLite, it reads back into another server, which
    /// exports the same lines. Three pages, the last a short one (each event is a request, so no more than that).
    @Test(arguments: [false, true])
    func anExportOfManyPagesReadsBackTheSame(durable: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-journal-pages-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await TestApp.run(storeDirectory: durable ? directory : nil, storeHistory: 1_000) { source in
            let session = try await source.createSession(body: #"{"features":["person"]}"#)
            for number in 0..<530 {
                try await source.send(
                    session, "person", #"{"type":"setPerson","firstName":"Name\#(number)","lastName":"Pages","birthdate":"1990-01-01"}"#)
            }
            let exported = try await Self.export(source, session)
            let first = Self.lines(exported)
            #expect(first.count > 2 * 256 + 1, "\(first.count) lines")
            try await TestApp.run { target in
                let response = try await Self.importJournal(target, exported)
                try #require(response.status == 201, "\(response)")
                let imported = TestSession(
                    id: try #require(try response.json["id"].string), token: try #require(try response.json["token"].string))
                let again = Self.lines(try await Self.export(target, imported))
                #expect(Array(again.dropFirst().dropLast()) == Array(first.dropFirst().dropLast()))
                #expect(Self.withoutDigest(again.last) == Self.withoutDigest(first.last))
            }
        }
    }

    @Test func anExportNeedsItsSessionsToken() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let other = try await app.createQuietSession()
            #expect(try await app.request("GET", session.path("journal")).status == 401)
            #expect(try await app.request("GET", session.path("journal"), token: other.token).status == 404)
            #expect(try await app.request("GET", "/v1/sessions/nosuchsession/journal", token: session.token).status == 404)
            #expect(try await app.request("GET", session.path("versions"), token: other.token).status == 404)
            let own = try await app.request("GET", session.path("journal"), token: session.token)
            #expect(own.status == 200)
            #expect(Self.lines(own.body).count >= 2)
        }
    }

    @Test func anImportThatIsNotTheExportIsRefusedNamingItsLineAndKeepsNothing() async throws {
        try await TestApp.run { source in
            let session = try await Self.busySession(source)
            let lines = Self.lines(try await Self.export(source, session))
            try await TestApp.run { target in
                func live() async throws -> String {
                    let metrics = try await target.request("GET", "/metrics")
                    return String(decoding: metrics.body, as: UTF8.self).split(separator: "\n")
                        .first { $0.hasPrefix("viewhost_sessions_live ") }.map(String.init) ?? ""
                }
                let before = try await live()
                func refused(_ changed: [String], line: Int?, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                    let response = try await Self.importJournal(target, Array((changed.joined(separator: "\n") + "\n").utf8))
                    #expect(response.status == 422, "\(response)", sourceLocation: sourceLocation)
                    #expect(response.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
                    if let line {
                        #expect(try response.json["line"].int == line, "\(response)", sourceLocation: sourceLocation)
                        #expect(response.problemFields == ["line \(line)"], sourceLocation: sourceLocation)
                    }
                }
                try await refused(Array(lines.dropLast()), line: lines.count - 1)  // truncated: no end line
                try await refused(Array(lines.prefix(4)) + [String(lines[4].prefix(30))], line: 5)  // cut mid-line
                var reordered = lines
                reordered.swapAt(2, 3)
                try await refused(reordered, line: 3)
                var duplicated = lines
                duplicated.insert(lines[3], at: 4)
                try await refused(duplicated, line: 5)
                var edited = lines
                edited[3] = edited[3].replacingOccurrences(of: "\"sequence\":", with: "\"sequence\":1")
                try await refused(edited, line: 4)
                let message = try #require(lines.indices.first { lines[$0].contains("hello 3") })
                var content = lines
                content[message] = content[message].replacingOccurrences(of: "hello 3", with: "goodbye")
                try await refused(content, line: nil)
                try await refused(["{}"], line: 1)
                try await refused([""], line: 1)
                // Not NDJSON: the session options' JSON and nothing else.
                let typed = try await Self.importJournal(target, Array(lines.joined(separator: "\n").utf8), contentType: "text/plain")
                #expect(typed.status == 415)
                #expect(try await live() == before)
            }
        }
    }

    /// An export is untrusted input from anyone, and its digest is no signature: each forgery below, with its digest
    /// recomputed, once crashed the server or made a session no live one could be. Each is refused with `422` naming
    /// the line and the field, nothing is kept, and the server goes on serving.
    @Test func aForgedExportIsRefusedNamingTheFieldAndTheServerLives() async throws {
        try await TestApp.run { source in
            let session = try await Self.busySession(source)
            let bytes = try await Self.export(source, session)
            let lines = Self.lines(bytes)
            let person = try #require(lines.firstIndex { $0.contains("\"Ada\"") }) + 1
            let timed = try #require(lines.indices.dropFirst(2).first { lines[$0].contains("\"at\":") }) + 1
            try await TestApp.run { target in
                func refused(_ forged: [UInt8], line: Int, naming field: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                    #expect(forged != bytes, "the forgery changed nothing", sourceLocation: sourceLocation)
                    let response = try await Self.importJournal(target, forged)
                    #expect(response.status == 422, "\(response)", sourceLocation: sourceLocation)
                    #expect(try response.json["line"].int == line, "\(response)", sourceLocation: sourceLocation)
                    #expect((try response.json["detail"].string ?? "").contains(field), "\(response)", sourceLocation: sourceLocation)
                    let health = try await target.request("GET", "/healthz")
                    #expect(health.status == 200, sourceLocation: sourceLocation)
                }
                try await refused(
                    ForgedExport.replacing(#""nextTimerID":\d+"#, with: #""nextTimerID":9223372036854775807"#, inLine: 1, of: bytes),
                    line: 1, naming: "base.counters.nextTimerID")
                for speed in ["0", "1e-300", "-2", "1e12"] {
                    try await refused(
                        ForgedExport.replacing(#""simulationSpeed":[0-9.e+-]+"#, with: "\"simulationSpeed\":\(speed)", inLine: 1, of: bytes),
                        line: 1, naming: "base.settings.simulationSpeed")
                }
                try await refused(
                    ForgedExport.replacing(#""maxMessagesPerChat":\d+"#, with: #""maxMessagesPerChat":100000"#, inLine: 1, of: bytes),
                    line: 1, naming: "maxMessagesPerChat")
                try await refused(
                    ForgedExport.replacing(#""Ada""#, with: "\"\(String(repeating: "A", count: 5_000))\"", inLine: person, of: bytes),
                    line: person, naming: "firstName")
                try await refused(
                    ForgedExport.replacing(#""at":[0-9.e+-]+"#, with: #""at":240000000000"#, inLine: timed, of: bytes),
                    line: timed, naming: "lifetime")
                // The same export, forged without a change, is taken: the refusals above are the changes'.
                let taken = try await Self.importJournal(target, ForgedExport.forge(bytes) { _ in })
                #expect(taken.status == 201, "\(taken)")
            }
        }
    }

    @Test func anImportLargerThanTheBodyLimitIs413BeforeItIsRead() async throws {
        try await TestApp.run { app in
            let client = try HTTPTestClient(port: app.port)
            try client.send(
                Array("POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\nContent-Length: 104857600\r\n\r\n{\"format\":".utf8))
            let response = try await client.readResponse(timeout: .seconds(10))
            #expect(response.status == 413)
        }
    }
}
