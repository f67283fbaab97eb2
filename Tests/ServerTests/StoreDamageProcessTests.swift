import Foundation
import Testing
import TestSupport
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// A store damaged for real (a truncated file, bytes flipped in one frame of the write-ahead log, the log deleted
/// while the server runs): the server says so and never serves what it cannot vouch for; `viewhost check` says in
/// a few lines what is wrong and what was lost, reading the store only; `viewhost repair` ends the sessions that
/// lost acknowledged records, so no version is handed out again for other content.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(4))))
struct StoreDamageProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-damage-\(UUID().uuidString)").path
    var file: String { directory + "/viewhost.sqlite" }

    func start() async throws -> ServerProcess {
        try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory],
            environment: ["VIEWHOST_LOG_ACCESS": "false"])
    }

    func run(_ arguments: [String], launcher: [String] = []) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ServerProcess.run(arguments + ["--data-dir", directory], launcher: launcher)
    }

    /// `count` person sessions, each sent `events` events (their clients at once): id, token and the version each
    /// was last answered.
    static func busySessions(_ port: Int, count: Int, events: Int) async throws -> [(id: String, token: String, version: Int)] {
        try await withThrowingTaskGroup(of: (id: String, token: String, version: Int).self) { group in
            for _ in 0..<count {
                group.addTask {
                    let (id, token) = try await ProcessHTTP.createSession(port, features: ["person"])
                    var version = 0
                    for number in 0..<events {
                        let posted = try await ProcessHTTP.request(
                            port, "POST", "/v1/sessions/\(id)/person/events", token: token,
                            body: StoreFaultProcessTests.person("n\(number)"))
                        #expect(posted.status == 202, "\(posted)")
                        version = ProcessHTTP.json(posted)?["version"] as? Int ?? version
                    }
                    return (id, token, version)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Flips eight bytes in the middle frame of the write-ahead log beside `file` (a killed server's, holding more
    /// than eight frames): SQLite ends the log there and drops every commit after it.
    static func damageMiddleFrame(ofLogOf file: String) throws {
        let log = try FileHandle(forUpdatingAtPath: file + "-wal").unwrap()
        let frames = (Int(try log.seekToEnd()) - 32) / (4096 + 24)
        try #require(frames > 8, "the log holds the commits (\(frames) frames)")
        try log.seek(toOffset: UInt64(32 + frames / 2 * (4096 + 24) + 24 + 512))
        try log.write(contentsOf: Data(repeating: 0xA5, count: 8))
        try log.close()
    }

    /// Truncated to 60 %, the store refuses to start (it served new sessions from the damaged file, and 5 of 6
    /// old ones answered 503 forever, with no log line); `check` says in a few lines what is wrong.
    @Test func aTruncatedStoreRefusesToStartAndCheckSaysWhatIsWrong() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await start()
        _ = try await Self.busySessions(server.port, count: 6, events: 10)
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        #expect(truncate(file, off_t(size * 6 / 10)) == 0)

        let refused = try await run(["serve", "--port", "0", "--store", "sqlite"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains(file) && refused.stderr.contains("damaged"), "\(refused.stderr)")
        let check = try await ServerProcess.run(["check", "--data-dir", directory], temporary: directory + "-tmp")
        #expect(check.leftInTemporary == [], "the copy it read is removed")
        #expect(check.status == 65, "\(check.stderr)")
        let lines = check.stderr.split(separator: "\n")
        #expect((2...8).contains(lines.count), "a few lines: \(check.stderr)")
        #expect(check.stderr.contains("it was cut off") && check.stderr.contains("none of its sessions can be read"), "\(check.stderr)")
    }

    /// A page in the middle of the file overwritten while the server was stopped: the server starts (the check of
    /// every page runs once it listens: seconds on a large store), then says the store is damaged (one log line,
    /// `/readyz` 503) and takes no writes; `check` lists SQLite's findings in a few lines.
    @Test func aDamagedPageIsFoundOnceTheServerStartedAndCheckListsIt() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await start()
        _ = try await Self.busySessions(server.port, count: 6, events: 10)
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        let pages = size / 4096
        try #require(pages > 6)
        let handle = try FileHandle(forUpdatingAtPath: file).unwrap()
        try handle.seek(toOffset: UInt64(pages / 2 * 4096))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try handle.close()

        server = try await start()
        #expect(try await eventually(timeout: .seconds(30), interval: .milliseconds(100)) {
            let ready = try await ProcessHTTP.request(server.port, "GET", "/readyz")
            return ready.status == 503 && ready.text.contains("damaged")
        })
        #expect(await eventually(timeout: .seconds(10)) {
            server.standardErrorText().contains("\(file) is damaged")
        }, "one log line names the file: \(server.standardErrorText())")
        let created = try await ProcessHTTP.request(server.port, "POST", "/v1/sessions", body: #"{"features":["person"]}"#)
        #expect(created.status == 503, "a damaged store takes no writes: \(created)")
        server.send(signal: SIGTERM)
        _ = try await server.waitForExit()
        let check = try await run(["check"])
        #expect(check.status == 65, "\(check.stderr)")
        #expect((2...8).contains(check.stderr.split(separator: "\n").count), "a few lines: \(check.stderr)")
        #expect(check.stderr.contains("integrity check"), "\(check.stderr)")
    }

    /// Eight bytes flipped in one frame of the log of a server killed with SIGKILL: SQLite ends the log there and
    /// drops every commit after it. The server refuses to start naming what was acknowledged and is missing, and
    /// so does `check`; `repair` ends those sessions (410); every session that still answers has a version at
    /// least as new as the one its client was answered, never one handed out again.
    @Test func aDamagedLogFrameRefusesToStartAndRepairEndsTheSessionsThatLostRecords() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await start()
        let sessions = try await Self.busySessions(server.port, count: 3, events: 20)
        server.send(signal: SIGKILL)
        _ = try await server.waitForExit()
        try Self.damageMiddleFrame(ofLogOf: file)

        let refused = try await run(["serve", "--port", "0", "--store", "sqlite"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains(file) && refused.stderr.contains("acknowledged"), "\(refused.stderr)")
        let check = try await run(["check"])
        #expect(check.status == 65, "\(check.stderr)")
        #expect(check.stderr.contains("missing"), "\(check.stderr)")
        let repair = try await run(["repair"])
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(repair.stdout.contains("ended"), "\(repair.stdout)")

        server = try await start()
        var ended = 0
        for session in sessions {
            let read = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(session.id)/person", token: session.token)
            if read.status == 410 {
                ended += 1
                // Its holder is told why (it was answered "expired after being idle"), and again on the next request.
                let again = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(session.id)", token: session.token)
                for answer in [read, again] {
                    let detail = ProcessHTTP.json(answer)?["detail"] as? String ?? ""
                    #expect(answer.status == 410, "\(answer)")
                    #expect(detail.contains("ended by a repair") && detail.contains("were lost"), "\(detail)")
                    #expect(!detail.contains("idle"), "\(detail)")
                }
                let other = try #require(sessions.first { $0.id != session.id })
                let stranger = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(session.id)", token: other.token)
                #expect(stranger.status == 404, "another session's token learns nothing: \(stranger)")
            } else {
                #expect(read.status == 200, "\(read)")
                #expect(ProcessHTTP.json(read)?["version"] as? Int ?? 0 >= session.version, "never a version handed out before")
            }
        }
        #expect(ended > 0, "the frame's damage dropped acknowledged records: \(repair.stdout)")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        #expect(try await run(["check"]).status == 0)
    }

    /// `viewhost.sqlite-wal` deleted while the server runs (an operator's mistake): the next write is refused with
    /// 503, `/readyz` says why, one log line names the file; what was acknowledged is kept (the server copies it
    /// into the main file), so after a restart every session is as it was answered and `check` finds it sound.
    @Test func deletingTheLogWhileServingIsReportedAndLosesNothing() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await start()
        let (id, token) = try await ProcessHTTP.createSession(server.port, features: ["person"])
        let events = "/v1/sessions/\(id)/person/events"
        var acknowledged = 0
        for number in 0..<5 {
            let posted = try await ProcessHTTP.request(server.port, "POST", events, token: token, body: StoreFaultProcessTests.person("n\(number)"))
            acknowledged = ProcessHTTP.json(posted)?["version"] as? Int ?? 0
        }
        try FileManager.default.removeItem(atPath: file + "-wal")
        let refused = try await ProcessHTTP.request(server.port, "POST", events, token: token, body: StoreFaultProcessTests.person("late"))
        #expect(refused.status == 503, "\(refused)")
        let ready = try await ProcessHTTP.request(server.port, "GET", "/readyz")
        #expect(ready.status == 503 && ready.text.contains("deleted"), "\(ready)")
        #expect(
            await eventually(timeout: .seconds(10)) { server.standardErrorText().contains(file + "-wal was deleted") },
            "one log line names the file")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)

        server = try await start()
        let read = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(id)/person", token: token)
        #expect(ProcessHTTP.json(read)?["version"] as? Int == acknowledged, "\(read)")
        #expect(ProcessHTTP.json(read)?["firstName"] as? String == "n4")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        #expect(try await run(["check"]).status == 0)
    }

    /// `check` reads the store only: on a read-only copy of a killed server's directory (its `-wal` and `-shm`
    /// there) it answers, and no file appears or goes; on a stopped store it leaves no `-wal` or `-shm` behind.
    /// With no store it exits 66.
    @Test func checkReadsOnlyAndWorksOnAReadOnlyCopy() async throws {
        let copy = directory + "-copy"
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: copy)
            try? FileManager.default.removeItem(atPath: copy)
        }
        var server = try await start()
        _ = try await Self.busySessions(server.port, count: 2, events: 3)
        server.send(signal: SIGKILL)
        _ = try await server.waitForExit()
        // The directory's files, as a copy of a store is made: not the server's take-over socket
        // (`viewhost.takeover`, left by the kill), which is no file to copy.
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: copy + "/" + name)
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: copy).sorted()
        #expect(before.contains("viewhost.sqlite-wal"), "\(before)")
        for name in before { try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: copy + "/" + name) }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: copy)
        // Root may write anywhere: as root the check runs as nobody, for whom the copy is read-only.
        let launcher = getuid() == 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []
        let checked = try await ServerProcess.run(["check", "--data-dir", copy], launcher: launcher)
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.contains("is sound (2 sessions)"), "\(checked.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: copy).sorted() == before)

        server = try await start()
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        let stopped = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(!stopped.contains("viewhost.sqlite-wal") && !stopped.contains("viewhost.sqlite-shm"), "\(stopped)")
        #expect(try await run(["check"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == stopped)

        let empty = try await ServerProcess.run(["check", "--data-dir", directory + "-none"])
        #expect(empty.status == 66, "\(empty.stderr)")
        #expect(empty.stderr.split(separator: "\n").count == 1)
    }
}

extension Optional {
    /// The value, or an error saying it was missing.
    func unwrap() throws -> Wrapped {
        guard let self else { throw CocoaError(.fileNoSuchFile) }
        return self
    }
}
