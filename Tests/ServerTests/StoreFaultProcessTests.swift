import Foundation
import Testing
import TestSupport
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// The SQLite store's faults on the real binary, each made for real (a tmpfs that fills up, files another user
/// owns, a second process): the server says what is wrong (a log line naming the file, `/readyz`, its exit code)
/// and answers with the true status, and what it answered `202` is never lost.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(4))))
struct StoreFaultProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-fault-\(UUID().uuidString)").path

    static func start(_ directory: String, _ extra: [String] = [], launcher: [String] = []) async throws -> ServerProcess {
        try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory] + extra,
            environment: ["VIEWHOST_LOG_ACCESS": "false"], launcher: launcher)
    }

    static func person(_ name: String) -> String {
        #"{"type":"setPerson","firstName":"\#(name)","lastName":"\#(String(repeating: "x", count: 200))","birthdate":"1990-01-01"}"#
    }

    /// A 2 MB disk fills up under four busy sessions. While it is full, an event gets `503` (never `202`), a
    /// session that exists is never `404`, every read answers `200`, and `/readyz` says `503` (a batch of writes
    /// refused without touching the disk is no sign that it takes writes again). Once space comes back the server
    /// is ready again, takes events, and a restart keeps everything it acknowledged.
    @Test(.enabled(if: TmpfsMount.isAvailable, "mounting a tmpfs needs root"))
    func aFullDiskAnswers503NeverA404ReadsGoOnAndReadinessSaysSo() async throws {
        try await TmpfsMount.with(kilobytes: 2048) { try await fillAndRecover($0) }
    }

    private func fillAndRecover(_ disk: TmpfsMount) async throws {
        let data = disk.path + "/data"
        var server = try await Self.start(data, ["--sync", "normal"])
        var sessions: [(id: String, token: String)] = []
        for _ in 0..<4 { sessions.append(try await ProcessHTTP.createSession(server.port, features: ["person"])) }
        try disk.fill(leaving: 96 * 1024)
        let seen = Locked((refused: 0, unexpected: [String](), acknowledged: [String: Int]()))
        let port = server.port
        // Two writers and a reader per session: writes to one session overlap, so one fails while the next is
        // queued behind it (refused without a write), and requests meet a copy that a failure just closed.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for session in sessions {
                let path = "/v1/sessions/\(session.id)/person"
                for writer in 0..<2 {
                    group.addTask {
                        for number in 0..<400 {
                            guard seen.withLock({ $0.refused < 60 }) else { return }
                            let posted = try await ProcessHTTP.request(
                                port, "POST", path + "/events", token: session.token, body: Self.person("w\(writer)n\(number)"))
                            seen.withLock { seen in
                                switch posted.status {
                                case 202:
                                    let version = ProcessHTTP.json(posted)?["version"] as? Int ?? 0
                                    seen.acknowledged[session.id] = max(seen.acknowledged[session.id] ?? 0, version)
                                case 503 where posted.header("Retry-After") != nil: seen.refused += 1
                                default: seen.unexpected.append("POST \(posted)")
                                }
                            }
                        }
                    }
                }
                group.addTask {
                    while seen.withLock({ $0.refused < 60 }) {
                        let read = try await ProcessHTTP.request(port, "GET", path, token: session.token)
                        if read.status != 200 { seen.withLock { $0.unexpected.append("GET \(read)") } }
                    }
                }
            }
            try await group.waitForAll()
        }
        let (refused, unexpected, acknowledged) = seen.withLock { ($0.refused, $0.unexpected, $0.acknowledged) }
        #expect(refused > 0, "the disk never filled")
        #expect(unexpected.isEmpty, "\(unexpected.prefix(3))")
        // Still full: every look at readiness says so (the probe's write fails too).
        for _ in 0..<5 {
            let ready = try await ProcessHTTP.request(port, "GET", "/readyz")
            #expect(ready.status == 503, "\(ready)")
            try await Task.sleep(for: .milliseconds(300))
        }
        #expect(server.standardErrorText().contains("disk is full"), "one log line says why")

        try disk.free()
        #expect(try await eventually(timeout: .seconds(30), interval: .milliseconds(200)) {
            try await ProcessHTTP.request(port, "GET", "/readyz").status == 200
        })
        for session in sessions {
            let posted = try await ProcessHTTP.request(
                port, "POST", "/v1/sessions/\(session.id)/person/events", token: session.token, body: Self.person("after"))
            #expect(posted.status == 202, "\(posted)")
        }
        server.send(signal: SIGTERM)
        let status = try await server.waitForExit()
        #expect(status == 0, "\(server.standardErrorText().suffix(4000))")
        server = try await Self.start(data)
        for session in sessions {
            let read = try await ProcessHTTP.request(
                server.port, "GET", "/v1/sessions/\(session.id)/person", token: session.token)
            #expect(ProcessHTTP.json(read)?["firstName"] as? String == "after", "\(read)")
            #expect((ProcessHTTP.json(read)?["version"] as? Int ?? 0) > acknowledged[session.id] ?? 0)
        }
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }
}

extension StoreFaultProcessTests {
    /// Two servers on one data directory (a second unit, two containers on one volume): the second exits 75 with
    /// one line naming the directory and the process that holds it, and the first goes on serving. Once the first
    /// stops, the directory can be used again.
    @Test func aSecondServerOnTheSameDataDirectoryExits75() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await Self.start(directory)
        let (id, token) = try await ProcessHTTP.createSession(first.port, features: ["person"])
        let second = try await ServerProcess.run(["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory])
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr.split(separator: "\n").count == 1, "\(second.stderr)")
        #expect(second.stderr.contains(directory) && second.stderr.contains("pid \(first.pid)"), "\(second.stderr)")
        let read = try await ProcessHTTP.request(first.port, "GET", "/v1/sessions/\(id)/person", token: token)
        #expect(read.status == 200)
        first.send(signal: SIGTERM)
        #expect(try await first.waitForExit() == 0)
        let third = try await Self.start(directory)
        #expect(try await ProcessHTTP.request(third.port, "GET", "/v1/sessions/\(id)/person", token: token).status == 200)
        third.send(signal: SIGTERM)
        #expect(try await third.waitForExit() == 0)
    }
}

extension StoreFaultProcessTests {
    /// Store files the server may not write (the usual cause: a first run as root, then as the service user): it
    /// exits 73 with one line naming the file and saying it is read-only for this user, instead of starting and
    /// answering every write 503. As root the second run is as nobody; otherwise the file is made read-only.
    @Test func storeFilesTheServerMayNotWriteExit73NamingThem() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await Self.start(directory)
        _ = try await ProcessHTTP.createSession(first.port, features: ["person"])
        first.send(signal: SIGTERM)
        #expect(try await first.waitForExit() == 0)
        let launcher: [String]
        if getuid() == 0 {
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory)
            launcher = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: directory + "/viewhost.sqlite")
            launcher = []
        }
        let second = try await ServerProcess.run(
            ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory], launcher: launcher)
        #expect(second.status == 73, "\(second.stderr)")
        #expect(second.stderr.split(separator: "\n").count == 1, "\(second.stderr)")
        #expect(second.stderr.contains(directory + "/viewhost.") && second.stderr.contains("read-only"), "\(second.stderr)")
    }
}
