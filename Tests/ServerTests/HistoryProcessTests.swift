import Foundation
import Testing
import TestSupport

/// History on the real binary and its SQLite store: a session exported from one server, imported into another,
/// serves every version byte for byte (action links aside), and still does after that server is killed with
/// SIGKILL and started again; `viewhost replay` prints the export's snapshots, or one, and refuses a broken file.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(4))))
struct HistoryProcessTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-history-\(UUID().uuidString)").path

    func start(_ name: String) async throws -> ServerProcess {
        try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", root + "/" + name, "--simulation-speed", "50"])
    }

    static func person(_ name: String) -> String {
        #"{"type":"setPerson","firstName":"\#(name)","lastName":"History","birthdate":"1990-01-01"}"#
    }

    /// `POST /v1/sessions` with an export as its body.
    static func importJournal(_ port: Int, _ export: [UInt8]) async throws -> TestResponse {
        let client = try HTTPTestClient(port: port)
        try client.send(
            Array("POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/x-ndjson\r\nContent-Length: \(export.count)\r\n\r\n".utf8)
                + export)
        return try await client.readResponse(timeout: .seconds(30))
    }

    /// Every version of `features` held, by feature and version: the bodies `?version=N` serves.
    static func versions(
        _ port: Int, _ session: (id: String, token: String), features: [String]
    ) async throws -> [String: [Int: [UInt8]]] {
        let list = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(session.id)/versions", token: session.token)
        let ranges = try #require(ProcessHTTP.json(list)?["features"] as? [String: [String: Int]])
        var bodies: [String: [Int: [UInt8]]] = [:]
        for feature in features {
            let range = try #require(ranges[feature])
            for version in try #require(range["oldest"])...(try #require(range["latest"])) {
                let response = try await ProcessHTTP.request(
                    port, "GET", "/v1/sessions/\(session.id)/\(feature)?version=\(version)", token: session.token)
                #expect(response.status == 200, "\(feature) \(version): \(response)")
                bodies[feature, default: [:]][version] = response.body
            }
        }
        return bodies
    }

    @Test func anExportImportedIntoAnotherServerServesEveryVersionAcrossARestart() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = try await start("a")
        let session = try await ProcessHTTP.createSession(source.port, features: ["chat", "person"])
        // Past one snapshot (64 inputs): the history starts at the session's creation and runs through a checkpoint.
        for number in 0..<70 {
            let response = try await ProcessHTTP.request(
                source.port, "POST", "/v1/sessions/\(session.id)/person/events", token: session.token, body: Self.person("n\(number)"))
            #expect(response.status == 202)
        }
        // John's chat is listed a moment after the session is made (a timer); opening it before is a 409.
        #expect(try await eventually(timeout: .seconds(30), interval: .milliseconds(50)) {
            let chat = try await ProcessHTTP.request(
                source.port, "GET", "/v1/sessions/\(session.id)/chat", token: session.token)
            return String(decoding: chat.body, as: UTF8.self).contains(#""contact":"John""#)
        })
        let openChat = try await ProcessHTTP.request(
            source.port, "POST", "/v1/sessions/\(session.id)/chat/events", token: session.token,
            body: #"{"type":"openChat","contact":"John"}"#)
        #expect(openChat.status == 202)
        let exported = try await ProcessHTTP.request(source.port, "GET", "/v1/sessions/\(session.id)/journal", token: session.token)
        try #require(exported.status == 200)
        let original = try await Self.versions(source.port, session, features: ["chat", "person"])
        #expect(original["person"]?.count ?? 0 >= 71)
        source.send(signal: SIGTERM)
        _ = try await source.waitForExit()

        var target = try await start("b")
        let response = try await Self.importJournal(target.port, exported.body)
        try #require(response.status == 201, "\(response)")
        let json = try #require(ProcessHTTP.json(response))
        let copy = (id: try #require(json["id"] as? String), token: try #require(json["token"] as? String))
        for round in ["imported", "after kill -9"] {
            let served = try await Self.versions(target.port, copy, features: ["chat", "person"])
            for (feature, bodies) in original {
                #expect(served[feature]?.keys.sorted() == bodies.keys.sorted(), "\(round): \(feature)")
                for (version, body) in bodies {
                    let expected = String(decoding: body, as: UTF8.self).replacingOccurrences(of: session.id, with: copy.id)
                    #expect(served[feature]?[version].map { String(decoding: $0, as: UTF8.self) } == expected,
                        "\(round): \(feature) \(version)")
                }
            }
            guard round == "imported" else { break }
            target.send(signal: SIGKILL)
            _ = try await target.waitForExit()
            target = try await start("b")
        }
        target.send(signal: SIGTERM)
        _ = try await target.waitForExit()
    }

    /// What one store answers for a session's past with `sessions.historyVersions` 0, after 70 changes (past the
    /// first snapshot, at 64): `?version=N` of an older version and of the one before the current, `/versions`,
    /// and the export's lines without the header's value (its times and seeds are the session's own).
    static func pastWithoutHistory(_ arguments: [String]) async throws -> [String] {
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0"] + arguments,
            environment: ["VIEWHOST_SESSIONS_HISTORY_VERSIONS": "0", "VIEWHOST_LOG_ACCESS": "false"])
        let session = try await ProcessHTTP.createSession(server.port, features: ["person"])
        for number in 0..<70 {
            let posted = try await ProcessHTTP.request(
                server.port, "POST", "/v1/sessions/\(session.id)/person/events", token: session.token, body: Self.person("n\(number)"))
            #expect(posted.status == 202)
        }
        var answers: [String] = []
        for version in [2, 67, 70] {
            let past = try await ProcessHTTP.request(
                server.port, "GET", "/v1/sessions/\(session.id)/person?version=\(version)", token: session.token)
            answers.append("\(past.status) \(past.text)")
        }
        answers.append(try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(session.id)/versions", token: session.token).text)
        let exported = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(session.id)/journal", token: session.token)
        let lines = exported.text.split(separator: "\n")
        answers.append("\(lines.count) lines")
        let header = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        let base = try #require(header["base"] as? [String: Any])
        answers.append("base holds n69: \(String(describing: base).contains("n69"))")
        let end = try #require(try JSONSerialization.jsonObject(with: Data((lines.last ?? "").utf8)) as? [String: Any])
        answers.append("records \(end["records"] ?? "none")")
        server.send(signal: SIGTERM)
        _ = try await server.waitForExit()
        return answers
    }

    /// With `sessions.historyVersions` 0, SQLite and PostgreSQL answer a session's past as the memory store does:
    /// no past version (`410` naming the current as the oldest held), `/versions` lists the current only, and the
    /// export is the current value and no input line. SQLite served the versions since the last snapshot, listed
    /// them and exported their records (the records a restart replays, read as history).
    @Test func withoutHistoryEveryStoreAnswersForThePastAsTheMemoryStore() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let memory = try await Self.pastWithoutHistory(["--store", "memory"])
        #expect(memory[0] == #"410 {"detail":"Version 2 of 'person' is no longer kept; the oldest version held is 71.","oldestVersion":71,"status":410,"title":"Gone","type":"about:blank"}"#)
        #expect(memory[3] == #"{"features":{"person":{"latest":71,"oldest":71}},"versions":[]}"#)
        #expect(Array(memory[4...]) == ["2 lines", "base holds n69: true", "records 0"])
        let sqlite = try await Self.pastWithoutHistory(["--store", "sqlite", "--data-dir", root + "/sqlite"])
        #expect(sqlite == memory)
        let database = try await PostgresServer()
        let postgres = try await Self.pastWithoutHistory(["--store", "postgres", "--database-url", database.url])
        await database.stop()
        #expect(postgres == memory)
    }

    @Test func replayPrintsAnExportsSnapshotsOrOneAndRefusesABrokenFile() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let server = try await start("a")
        let session = try await ProcessHTTP.createSession(server.port, features: ["person"])
        for number in 0..<3 {
            _ = try await ProcessHTTP.request(
                server.port, "POST", "/v1/sessions/\(session.id)/person/events", token: session.token, body: Self.person("r\(number)"))
        }
        let exported = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(session.id)/journal", token: session.token)
        let second = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(session.id)/person?version=2", token: session.token)
        server.send(signal: SIGTERM)
        _ = try await server.waitForExit()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let file = root + "/export.ndjson"
        try Data(exported.body).write(to: URL(fileURLWithPath: file))

        let all = try await ServerProcess.run(["replay", file])
        #expect(all.status == 0, "\(all.stderr)")
        let lines = all.stdout.split(separator: "\n")
        #expect(lines.count == 4, "versions 1 to 4 of person")
        #expect(lines.last?.contains("\"firstName\":\"r2\"") == true || lines.last?.contains("r2") == true)
        let one = try await ServerProcess.run(["replay", file, "--feature", "person", "--version", "2"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout == String(decoding: second.body, as: UTF8.self) + "\n")

        let missing = try await ServerProcess.run(["replay", root + "/nothing.ndjson"])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("viewhost: cannot read"))
        let usage = try await ServerProcess.run(["replay", file, "--version", "2"])
        #expect(usage.status == 64)
        let notThere = try await ServerProcess.run(["replay", file, "--feature", "person", "--version", "99"])
        #expect(notThere.status == 65)
        #expect(notThere.stderr.contains("versions 1 to 4"), "\(notThere.stderr)")
        let cut = root + "/cut.ndjson"
        try Data(exported.body.dropLast(20)).write(to: URL(fileURLWithPath: cut))
        let broken = try await ServerProcess.run(["replay", cut])
        #expect(broken.status == 65)
        #expect(broken.stderr.contains("line 5"), "\(broken.stderr)")
        #expect(broken.stderr.split(separator: "\n").count == 1)
    }

    /// Issue "No request can crash the server", items 1 and 12: a forged export (its digest recomputed, as anyone
    /// can) once killed the server without a token, and `viewhost replay` with SIGILL. Each is refused with `422`
    /// naming the line and the field, and the server goes on serving; `replay` refuses it in one line (exit 65), and
    /// says what is wrong with an empty file, a directory and a negative version; a version asked for twice is `400`.
    @Test func aForgedExportIsRefusedAndNeitherTheServerNorReplayDies() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let server = try await start("forged")
        let session = try await ProcessHTTP.createSession(server.port, features: ["chat", "person"])
        for number in 0..<3 {
            _ = try await ProcessHTTP.request(
                server.port, "POST", "/v1/sessions/\(session.id)/person/events", token: session.token, body: Self.person("f\(number)"))
        }
        _ = try await ProcessHTTP.request(
            server.port, "POST", "/v1/sessions/\(session.id)/chat/events", token: session.token,
            body: #"[{"type":"openChat","contact":"John"},{"type":"send","text":"hi"}]"#)
        let exported = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(session.id)/journal", token: session.token)
        try #require(exported.status == 200)
        let forgeries = [
            ForgedExport.replacing(#""nextTimerID":\d+"#, with: #""nextTimerID":9223372036854775807"#, inLine: 1, of: exported.body),
            ForgedExport.replacing(#""simulationSpeed":[0-9.e+-]+"#, with: #""simulationSpeed":1e-300"#, inLine: 1, of: exported.body),
        ]
        for forged in forgeries {
            #expect(forged != exported.body)
            let response = try await Self.importJournal(server.port, forged)
            #expect(response.status == 422, "\(response)")
            #expect(ProcessHTTP.json(response)?["line"] as? Int == 1, "\(response)")
            // Had it been taken, a send would schedule the chat's timers on the forged counters.
            let health = try await ProcessHTTP.request(server.port, "GET", "/healthz")
            #expect(health.status == 200)
        }
        let twice = try await ProcessHTTP.request(
            server.port, "GET", "/v1/sessions/\(session.id)/person?version=2&version=3", token: session.token)
        #expect(twice.status == 400, "\(twice)")
        #expect(String(decoding: twice.body, as: UTF8.self).contains("must be given once"), "\(twice)")
        server.send(signal: SIGTERM)
        _ = try await server.waitForExit()

        let file = root + "/forged.ndjson"
        try Data(forgeries[1]).write(to: URL(fileURLWithPath: file))
        let replayed = try await ServerProcess.run(["replay", file])
        #expect(replayed.status == 65, "\(replayed.stderr)")
        #expect(replayed.stdout.isEmpty)
        #expect(replayed.stderr.contains("line 1: base.settings.simulationSpeed"), "\(replayed.stderr)")
        #expect(replayed.stderr.split(separator: "\n").count == 1)
        // Refused at its end line, a file prints that refusal alone, not the snapshots before it.
        let lastLine = root + "/last-line.ndjson"
        let endLine = String(decoding: exported.body, as: UTF8.self).split(separator: "\n").count
        try Data(ForgedExport.replacing(#""records":\d+"#, with: #""records":999"#, inLine: endLine, of: exported.body))
            .write(to: URL(fileURLWithPath: lastLine))
        let atEnd = try await ServerProcess.run(["replay", lastLine])
        #expect(atEnd.status == 65, "\(atEnd.stderr)")
        #expect(atEnd.stdout.isEmpty, "\(atEnd.stdout.count) bytes printed before the refusal")
        let empty = root + "/empty.ndjson"
        try Data().write(to: URL(fileURLWithPath: empty))
        let emptied = try await ServerProcess.run(["replay", empty])
        #expect(emptied.status == 65)
        #expect(emptied.stderr == "viewhost: \(empty) is empty, not a journal export\n", "\(emptied.stderr)")
        let directory = try await ServerProcess.run(["replay", root])
        #expect(directory.status == 66)
        #expect(directory.stderr == "viewhost: cannot read \(root): it is a directory, not a journal export\n", "\(directory.stderr)")
        let negative = try await ServerProcess.run(["replay", file, "--feature", "person", "--version", "-3"])
        #expect(negative.status == 64)
        #expect(negative.stderr.contains("--version must be 1 or more"), "\(negative.stderr)")
    }
}
