import ViewHost
import Foundation
import HTTPCore
import Logging
import Testing
import TestSupport

/// The access log and the refusal log, read back as the JSON lines an operator's collector would get: one line
/// per request with its route pattern, status, bytes, duration and ids, never a token or cookie; `log.access`
/// turns it off; requests refused by a rate limit are logged with their reason.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct AccessLogHTTPTests {
    @Test func everyRequestGetsOneLineWithRouteStatusBytesDurationAndIDs() async throws {
        let log = try LogFile()
        let session = try await TestApp.run(logger: log.logger) { app in
            let session = try await app.createQuietSession()
            _ = try await app.snapshot(session, "chat")
            _ = try await app.request("GET", "/nope")
            _ = try await app.request("GET", session.path("chat"), headers: [("Cookie", "viewhost_session=\(session.token)")])
            return session
        }
        let lines = try log.lines()
        let requests = lines.filter { $0["message"] as? String == "request" }
        #expect(requests.count == 4, "\(requests)")

        let created = try #require(requests.first { $0["route"] as? String == "/v1/sessions" })
        #expect(created["method"] as? String == "POST")
        #expect(created["status"] as? Int == 201)
        #expect(created["session-id"] as? String == session.id, "the new session's id, from its Location")
        #expect((created["bytes"] as? Int ?? 0) > 0)
        #expect(created["duration-ms"] is Double || created["duration-ms"] is Int)
        #expect((created["request-id"] as? String)?.isEmpty == false)
        #expect(created["level"] as? String == "info")
        #expect(created["time"] is String)

        let snapshots = requests.filter { $0["route"] as? String == "/v1/sessions/:id/:feature" }
        #expect(snapshots.count == 2)
        #expect(snapshots.allSatisfy { $0["status"] as? Int == 200 && $0["session-id"] as? String == session.id })
        #expect(snapshots.allSatisfy { $0["method"] as? String == "GET" })

        let unmatched = try #require(requests.first { $0["route"] as? String == "unmatched" })
        #expect(unmatched["status"] as? Int == 404)
        #expect(unmatched["session-id"] == nil)

        #expect(!log.text.contains(session.token), "no token or cookie value is ever logged")
        #expect(!log.text.contains("/v1/sessions/\(session.id)/chat"), "routes are logged as patterns, not paths")
    }

    @Test func accessLogOffWritesNoRequestLines() async throws {
        let log = try LogFile()
        try await TestApp.run({ $0.log.access = false }, logger: log.logger) { app in
            _ = try await app.createQuietSession()
        }
        #expect(try log.lines().filter { $0["message"] as? String == "request" }.isEmpty)
    }

    @Test func requestsRefusedByARateLimitAreLoggedWithTheirReason() async throws {
        let log = try LogFile()
        try await TestApp.run({ $0.rateLimits.sessionsPerMinutePerClient = 1 }, logger: log.logger) { app in
            _ = try await app.createQuietSession()
            for _ in 0..<3 {
                #expect(try await app.request("POST", "/v1/sessions").status == 429)
            }
        }
        let refusals = try log.lines().filter { $0["message"] as? String == "refused request" }
        #expect(refusals.count == 3)
        #expect(refusals.allSatisfy { $0["status"] as? Int == 429 && $0["level"] as? String == "notice" })
        #expect(refusals.allSatisfy { ($0["reason"] as? String)?.contains("too many sessions") == true })
        #expect(refusals.allSatisfy { $0["peer"] as? String == "127.0.0.1" })
    }

    @Test func parserAndSizeRefusalsAreLoggedByTheServer() async throws {
        let log = try LogFile()
        try await TestApp.run({ $0.http.limits.maxRequestLineBytes = 128 }, logger: log.logger) { app in
            let long = try await app.request("GET", "/" + String(repeating: "a", count: 300))
            #expect(long.status == 414)
        }
        let refusals = try log.lines().filter { $0["message"] as? String == "refused request" }
        let refusal = try #require(refusals.first)
        #expect(refusal["status"] as? Int == 414)
        #expect((refusal["reason"] as? String)?.isEmpty == false)
    }
}

/// A JSON-lines log written through the server's own handler and writer into a temporary file.
final class LogFile: Sendable {
    let path: String
    let writer: LogWriter
    private let fd: Int32

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-log-\(UUID().uuidString)").path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        writer = LogWriter(fd: fd)
    }

    deinit {
        close(fd)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A logger at `info` whose lines go to the file as JSON.
    var logger: Logger {
        let writer = writer
        var logger = Logger(label: "viewhost") { LineLogHandler(label: $0, format: .json, writer: writer) }
        logger.logLevel = .info
        return logger
    }

    /// Everything written so far.
    var text: String {
        writer.flush()
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// Each line, parsed as a JSON object.
    func lines() throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }
}
