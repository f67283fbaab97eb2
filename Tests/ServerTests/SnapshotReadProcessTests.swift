import Foundation
import Testing
import TestSupport
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// A snapshot read is served from the newest durable version, and never refused because writes to the session
/// follow each other: while four clients send chat messages back to back (and the bot's timers fire), and right
/// after a restart while the timers that fell due fire, every `GET` answers `200` with a version at least as new
/// as any the reader saw before.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(3))))
struct SnapshotReadProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-reads-\(UUID().uuidString)").path

    func start() async throws -> ServerProcess {
        try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory, "--simulation-speed", "20"],
            environment: ["VIEWHOST_LOG_ACCESS": "false"])
    }

    @Test func readsAnswer200WhileWritesFollowEachOtherAndAfterARestart() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await start()
        let (id, token) = try await ProcessHTTP.createSession(server.port, features: ["chat"])
        let chat = "/v1/sessions/\(id)/chat"
        #expect(try await ProcessHTTP.request(server.port, "POST", chat + "/events", token: token, body: #"{"type":"appear"}"#).status == 202)
        // John's chat is listed once the simulated load is done (a timer).
        #expect(try await eventually(timeout: .seconds(20), interval: .milliseconds(20)) {
            try await ProcessHTTP.request(server.port, "GET", chat, token: token).text.contains(#""contact":"John""#)
        })
        let open = try await ProcessHTTP.request(
            server.port, "POST", chat + "/events", token: token, body: #"{"type":"openChat","contact":"John"}"#)
        #expect(open.status == 202)
        let port = server.port
        let failures = Locked<[String]>([])
        let writing = Locked(true)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for number in 0..<40 {
                        let sent = try await ProcessHTTP.request(
                            port, "POST", chat + "/events", token: token, body: #"{"type":"send","text":"w\#(writer) \#(number)"}"#)
                        if sent.status != 202 { failures.withLock { $0.append("POST \(sent)") } }
                    }
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    while writing.withLock({ $0 }) { try await Self.read(port, chat, token: token, failures: failures) }
                }
            }
            try await group.next()
            try await group.next()
            try await group.next()
            try await group.next()
            writing.withLock { $0 = false }
            try await group.waitForAll()
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(3) })")

        // Killed with the bot's replies still to come: after the restart they fire at once, while reads come in.
        server.send(signal: SIGKILL)
        _ = try await server.waitForExit()
        try await Task.sleep(for: .milliseconds(800))  // the replies fall due while the server is down (speed 20)
        server = try await start()
        for _ in 0..<50 { try await Self.read(server.port, chat, token: token, failures: failures) }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(3) })")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    private static func read(_ port: Int, _ path: String, token: String, failures: Locked<[String]>) async throws {
        let read = try await ProcessHTTP.request(port, "GET", path, token: token)
        if read.status != 200 { failures.withLock { $0.append("GET \(read)") } }
    }
}
