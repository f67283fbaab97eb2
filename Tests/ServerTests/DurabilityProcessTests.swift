import Foundation
import Testing
import TestSupport
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// The durable store on the real binary: what was answered `202` survives `kill -9`, timers that fell due while
/// the server was down fire after it starts, streams and long polls resume across a restart, and the store's
/// faults get the answers the README promises.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct DurabilityProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-durable-\(UUID().uuidString)").path

    func start(_ extra: [String] = [], launcher: [String] = []) async throws -> ServerProcess {
        try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory] + extra, launcher: launcher)
    }

    static func person(_ name: String) -> String {
        #"{"type":"setPerson","firstName":"\#(name)","lastName":"Durable","birthdate":"1990-01-01"}"#
    }

    /// Four clients post 25 events each with an `Idempotency-Key`, retrying what got no answer, while the server is
    /// killed with SIGKILL and started again five times. Every event applies exactly once: each session's version
    /// ends at its first version plus 25, and the last name is the last one sent.
    @Test func killNineLosesNothingThatWasAcknowledgedAndRetriesApplyOnce() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await start()
        let shared = Shared(port: server.port)
        var sessions: [(id: String, token: String, firstVersion: Int)] = []
        for _ in 0..<4 {
            let (id, token) = try await ProcessHTTP.createSession(server.port, features: ["person"])
            let snapshot = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(id)/person", token: token)
            sessions.append((id, token, ProcessHTTP.json(snapshot)?["version"] as? Int ?? -1))
        }
        let eventsPerClient = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for session in sessions {
                group.addTask {
                    for number in 0..<eventsPerClient {
                        while true {
                            let response = try? await ProcessHTTP.request(
                                shared.port.withLock { $0 }, "POST", "/v1/sessions/\(session.id)/person/events",
                                token: session.token, body: Self.person("n\(number)"),
                                headers: ["Idempotency-Key": "event-\(number)"], timeout: .seconds(5))
                            if let response, response.status == 202 {
                                let version = ProcessHTTP.json(response)?["version"] as? Int ?? 0
                                shared.acknowledged.withLock { $0[session.id] = max($0[session.id] ?? 0, version) }
                                break
                            }
                            if let response, response.status != 503 {
                                shared.unexpected.withLock { $0.append("\(response.status) \(response.text)") }
                                return
                            }
                            try await Task.sleep(for: .milliseconds(20))
                        }
                    }
                }
            }
            for _ in 0..<5 {
                try await Task.sleep(for: .milliseconds(Int.random(in: 150...400)))
                let acknowledged = shared.acknowledged.withLock { $0 }
                server.send(signal: SIGKILL)
                _ = try await server.waitForExit()
                server = try await start()
                shared.port.withLock { $0 = server.port }
                for session in sessions {
                    let response = try await ProcessHTTP.request(
                        server.port, "GET", "/v1/sessions/\(session.id)/person", token: session.token)
                    let version = ProcessHTTP.json(response)?["version"] as? Int ?? -1
                    #expect(version >= acknowledged[session.id] ?? 0, "no version goes backwards after a restart")
                }
            }
            try await group.waitForAll()
        }
        #expect(shared.unexpected.withLock { $0 }.isEmpty)
        for session in sessions {
            let response = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(session.id)/person", token: session.token)
            let snapshot = try #require(ProcessHTTP.json(response))
            #expect(snapshot["version"] as? Int == session.firstVersion + eventsPerClient)
            #expect(snapshot["firstName"] as? String == "n\(eventsPerClient - 1)", "\(snapshot)")
        }
        // Group commit: the store's counters say how many writes shared each commit (this process's: the events
        // above may all have been written before the last restart).
        for session in sessions {
            let posted = try await ProcessHTTP.request(
                server.port, "POST", "/v1/sessions/\(session.id)/person/events", token: session.token, body: Self.person("last"))
            #expect(posted.status == 202)
        }
        let metrics = try await ProcessHTTP.request(server.port, "GET", "/metrics").text
        let commits = Self.counter("viewhost_store_commits_total", in: metrics)
        let writes = Self.counter("viewhost_store_writes_total", in: metrics)
        #expect(commits > 0 && writes >= commits, "\(commits) commits, \(writes) writes")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    static func counter(_ name: String, in metrics: String) -> Int {
        metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
    }

    /// The bot's reply is a timer in the journal: killed right after the message was accepted and started again
    /// after the reply fell due, the server sends it at start, with its log entry.
    @Test func aBotReplyThatFellDueWhileTheServerWasDownArrivesAfterStart() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await start(["--simulation-speed", "10"])
        let (id, token) = try await ProcessHTTP.createSession(server.port, features: ["chat"])
        let events = "/v1/sessions/\(id)/chat/events"
        #expect(try await ProcessHTTP.request(server.port, "POST", events, token: token, body: #"{"type":"appear"}"#).status == 202)
        var johnListed = false
        // Bounds, not measurements: on a busy machine the restarted server's timers take their time.
        var deadline = TestDeadline.after(.seconds(60))
        while !johnListed, ContinuousClock.now < deadline {
            let chat = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(id)/chat", token: token)
            johnListed = chat.text.contains(#""contact":"John""#)
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(johnListed)
        #expect(try await ProcessHTTP.request(server.port, "POST", events, token: token, body: #"{"type":"openChat","contact":"John"}"#).status == 202)
        #expect(try await ProcessHTTP.request(server.port, "POST", events, token: token, body: #"{"type":"send","text":"Are you there?"}"#).status == 202)
        server.send(signal: SIGKILL)
        _ = try await server.waitForExit()
        try await Task.sleep(for: .milliseconds(2500))  // sent 0.15 s, read ≤ 0.45 s, reply ≤ 1.4 s later (speed 10)

        server = try await start(["--simulation-speed", "10"])
        var messages: [[String: Any]] = []
        var chat: TestResponse?
        deadline = TestDeadline.after(.seconds(60))
        while messages.count < 3, ContinuousClock.now < deadline {
            chat = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(id)/chat", token: token)
            let conversations = chat.flatMap(ProcessHTTP.json)?["conversations"] as? [String: Any]
            messages = (conversations?["John"] as? [String: Any])?["messages"] as? [[String: Any]] ?? []
            try await Task.sleep(for: .milliseconds(20))
        }
        // Greeting, our message, the reply; a next reply may be there too by the first look (they follow 0.5–1.4 s
        // apart at speed 10, and under load a start can take longer: one run saw 4).
        #expect(messages.count >= 3, "greeting, our message, the reply: \(String(describing: chat))\n\(server.standardErrorText())")
        let ours = messages.firstIndex { $0["message"] as? String == "Are you there?" }
        #expect(ours == 1, "\(messages)")
        #expect(ours.map { messages[$0]["readStatus"] as? String } == "✓")
        #expect(messages.dropFirst(2).allSatisfy { $0["sentBy"] as? String == "other" })
        let log = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(id)/log", token: token)
        let entries = (try? JSONSerialization.jsonObject(with: Data(log.body))) as? [[String: Any]] ?? []
        let sequence = entries.compactMap { $0["seq"] as? Int }
        #expect(sequence == sequence.sorted() && Set(sequence).count == sequence.count)
        #expect(entries.contains { $0["source"] as? String == "simulator" }, "\(log.text)")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// Sequence numbers and versions go on after a restart: a stream resumed with `Last-Event-ID` gets only the
    /// change made after it, and a long poll with the old `ETag` waits instead of answering the same version.
    @Test func streamsAndLongPollsResumeAcrossARestart() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await start()
        let (id, token) = try await ProcessHTTP.createSession(server.port, features: ["person"])
        let stream = try HTTPTestClient(port: server.port)
        try stream.send("GET /v1/sessions/\(id)/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
        _ = try await stream.read(untilContaining: "event: person")
        #expect(try await ProcessHTTP.request(server.port, "POST", "/v1/sessions/\(id)/person/events", token: token, body: Self.person("Before")).status == 202)
        let frames = String(decoding: try await stream.read(untilContaining: "Before"), as: UTF8.self)
        let lastID = try #require(Self.eventIDs(in: frames).last, "\(frames)")
        let before = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(id)/person", token: token)
        let etag = try #require(before.header("ETag"))

        server.send(signal: SIGKILL)
        _ = try await server.waitForExit()
        server = try await start()
        let unchanged = try await ProcessHTTP.request(
            server.port, "GET", "/v1/sessions/\(id)/person?wait=1", token: token, headers: ["If-None-Match": etag])
        #expect(unchanged.status == 304)
        let resumed = try HTTPTestClient(port: server.port)
        try resumed.send(
            "GET /v1/sessions/\(id)/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nLast-Event-ID: \(lastID)\r\n\r\n")
        _ = try await resumed.read(untilContaining: "\r\n\r\n")
        #expect(try await ProcessHTTP.request(server.port, "POST", "/v1/sessions/\(id)/person/events", token: token, body: Self.person("After")).status == 202)
        let after = String(decoding: try await resumed.read(untilContaining: "After"), as: UTF8.self)
        #expect(!after.contains("Before"), "only what changed since \(lastID): \(after)")
        #expect(Self.eventIDs(in: after) == [lastID + 1])
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// What the clients of the kill test share with the test: the server's current port, and answers they did
    /// not expect.
    final class Shared: Sendable {
        let port: Locked<Int>
        let unexpected = Locked<[String]>([])
        /// The highest version each session's events were answered with.
        let acknowledged = Locked<[String: Int]>([:])

        init(port: Int) { self.port = Locked(port) }
    }

    static func eventIDs(in text: String) -> [Int] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            line.hasPrefix("id: ") ? Int(line.dropFirst(4).trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        }
    }

    /// A data directory that cannot be made, or cannot be written: exit 73 with one line naming it.
    @Test func aDataDirectoryThatCannotBeUsedExits73() async throws {
        let missing = try await ServerProcess.run(["serve", "--port", "0", "--store", "sqlite", "--data-dir", "/proc/viewhost/data"])
        #expect(missing.status == 73)
        #expect(missing.stderr.split(separator: "\n").count == 1)
        #expect(missing.stderr.contains("/proc/viewhost/data"), "\(missing.stderr)")

        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Root may write anywhere: as root the server runs as nobody, for whom the directory is read-only.
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        let launcher = getuid() == 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []
        let readOnly = try await ServerProcess.run(
            ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory], launcher: launcher)
        #expect(readOnly.status == 73, "\(readOnly.stderr)")
        #expect(readOnly.stderr.contains("not writable"), "\(readOnly.stderr)")
    }

    /// A file that is not a sound store: exit 65 naming the file, never a crash.
    @Test func aCorruptStoreExits65NamingTheFile() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/viewhost.sqlite"
        try Data(repeating: 0x2A, count: 16_384).write(to: URL(fileURLWithPath: file))
        let result = try await ServerProcess.run(["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory])
        #expect(result.status == 65)
        #expect(result.stderr.contains(file), "\(result.stderr)")
        // `check` reads a copy it makes in the temporary directory, and removes it even when SQLite cannot open it
        // (it was left there, a copy of the user's data, each time).
        let check = try await ServerProcess.run(["check", "--data-dir", directory], temporary: directory + "-tmp")
        #expect(check.status == 65)
        #expect(check.stderr.contains(file), "\(check.stderr)")
        #expect(check.leftInTemporary == [])
    }

    /// A full disk (a file-size limit): the event that cannot be kept gets `503` with `Retry-After`, never `202`;
    /// reads go on; `/readyz` says not ready until a write succeeds again, and then events are kept again.
    /// Not under ThreadSanitizer: its runtime dies with SIGBUS at start under a 256 KiB file-size limit, before
    /// the server runs a line (scripts/sanitize.sh sets VIEWHOST_SANITIZER).
    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["VIEWHOST_SANITIZER"] == "thread",
            "TSan's runtime needs more than the file-size limit"))
    func aFullDiskRefusesEventsWith503UntilSpaceComesBack() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await start(["--sync", "normal"], launcher: ["prlimit", "--fsize=262144:unlimited", "--"])
        let (id, token) = try await ProcessHTTP.createSession(server.port, features: ["person"])
        let events = "/v1/sessions/\(id)/person/events"
        let padding = String(repeating: "x", count: 40)
        var refused: TestResponse?
        var acknowledged = 0
        for number in 0..<2_000 where refused == nil {
            let response = try await ProcessHTTP.request(server.port, "POST", events, token: token, body: Self.person("n\(number)\(padding)"))
            if response.status == 202 { acknowledged += 1 } else { refused = response }
        }
        let full = try #require(refused, "no write failed under a 256 KiB file-size limit")
        #expect(full.status == 503)
        #expect(full.header("Retry-After") != nil)
        #expect(full.header("Content-Type") == "application/problem+json")
        let read = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(id)/person", token: token)
        #expect(read.status == 200)
        #expect(ProcessHTTP.json(read)?["firstName"] as? String == "n\(acknowledged - 1)\(padding)")
        #expect(try await ProcessHTTP.request(server.port, "GET", "/readyz").status == 503)

        _ = try await ServerProcess.run(executable: "prlimit", ["--pid", String(server.pid), "--fsize=unlimited:unlimited"])
        var ready = false
        let deadline = TestDeadline.after(.seconds(60))  // the server tries a write every 2 s: a bound, generous
        while !ready, ContinuousClock.now < deadline {
            ready = try await ProcessHTTP.request(server.port, "GET", "/readyz").status == 200
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(ready, "ready again once a write succeeds")
        #expect(try await ProcessHTTP.request(server.port, "POST", events, token: token, body: Self.person("again")).status == 202)
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        let restarted = try await start()
        let kept = try await ProcessHTTP.request(restarted.port, "GET", "/v1/sessions/\(id)/person", token: token)
        #expect(ProcessHTTP.json(kept)?["firstName"] as? String == "again")
        restarted.send(signal: SIGTERM)
        #expect(try await restarted.waitForExit() == 0)
    }
}
