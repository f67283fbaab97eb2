import Foundation
import Testing
import TestSupport
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// `serve --take-over` on the real binary: two processes on one data directory and port; the new one gets the
/// running one's listening sockets over the data directory's handover socket, and nothing is refused meanwhile.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct TakeOverProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vh-takeover-\(UUID())").path

    func start(_ extra: [String] = [], port: Int = 0) async throws -> ServerProcess {
        try await ServerProcess(
            arguments: ["serve", "--port", String(port), "--store", "sqlite", "--data-dir", directory] + extra)
    }

    static func person(_ name: String) -> String {
        #"{"type":"setPerson","firstName":"\#(name)","lastName":"TakeOver","birthdate":"1990-01-01"}"#
    }

    /// While a client sends requests, each on a new connection, and a stream follows a session, a second process
    /// takes over: every request is answered 200 (none refused or reset), the old stream ends, the old process
    /// exits 0, and a stream resumed with `Last-Event-ID` on the new process gets the change made after it.
    @Test func aNewProcessTakesOverWithoutARefusedRequestAndStreamsResume() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = try await start()
        let port = old.port
        let (id, token) = try await ProcessHTTP.createSession(port, features: ["person"])
        let stream = try HTTPTestClient(port: port)
        try stream.send("GET /v1/sessions/\(id)/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
        _ = try await stream.read(untilContaining: "event: person")
        let posted = try await ProcessHTTP.request(
            port, "POST", "/v1/sessions/\(id)/person/events", token: token, body: Self.person("Before"))
        #expect(posted.status == 202)
        let frames = String(decoding: try await stream.read(untilContaining: "Before"), as: UTF8.self)
        let lastID = try #require(DurabilityProcessTests.eventIDs(in: frames).last, "\(frames)")

        let outcomes = Locked<[String]>([])
        let stop = Locked(false)
        let traffic = Task {
            while !stop.withLock({ $0 }), !Task.isCancelled {
                do {
                    let response = try await ProcessHTTP.request(port, "GET", "/healthz", timeout: .seconds(30))
                    outcomes.withLock { $0.append("\(response.status)") }
                } catch {
                    outcomes.withLock { $0.append("error: \(error)") }
                }
            }
        }
        // However the test ends (a failed `try` included), the requests stop: a loop left running once spun for
        // an hour in a failed run, appending errors until the test process held 19 GB.
        defer {
            stop.withLock { $0 = true }
            traffic.cancel()
        }
        #expect(await eventually { outcomes.withLock { $0.count } >= 5 }, "requests flow before the take-over")
        let new = try await start(["--take-over"], port: port)
        #expect(new.port == port)
        let atReadiness = outcomes.withLock { $0.count }
        #expect(
            await eventually { outcomes.withLock { $0.count } >= atReadiness + 20 }, "requests flow after the take-over")
        #expect(try await old.waitForExit() == 0)
        stop.withLock { $0 = true }
        await traffic.value
        let answers = outcomes.withLock { $0 }
        #expect(answers.allSatisfy { $0 == "200" }, "\(answers.filter { $0 != "200" })")
        #expect(await stream.waitForClose(timeout: .seconds(30)), "the old process's stream ends")

        let resumed = try HTTPTestClient(port: port)
        try resumed.send(
            "GET /v1/sessions/\(id)/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nLast-Event-ID: \(lastID)\r\n\r\n")
        _ = try await resumed.read(untilContaining: "\r\n\r\n")
        let after = try await ProcessHTTP.request(
            port, "POST", "/v1/sessions/\(id)/person/events", token: token, body: Self.person("After"))
        #expect(after.status == 202)
        let text = String(decoding: try await resumed.read(untilContaining: "After"), as: UTF8.self)
        #expect(!text.contains("Before"), "only what changed since \(lastID): \(text)")
        #expect(DurabilityProcessTests.eventIDs(in: text) == [lastID + 1])
        new.send(signal: SIGTERM)
        #expect(try await new.waitForExit() == 0)
    }

    @Test func theMemoryStoreIsRefusedWith64() async throws {
        let result = try await ServerProcess.run(["serve", "--port", "0", "--store", "memory", "--take-over"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--take-over needs --store sqlite"), "\(result.stderr)")
    }

    @Test func withNoServerRunningItStartsAsUsual() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await start(["--take-over"])
        let health = try await ProcessHTTP.request(server.port, "GET", "/healthz")
        #expect(health.status == 200)
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        #expect(server.standardErrorText().contains("no server runs on the data directory"))
    }

    /// A running server that does not answer (stopped with SIGSTOP) is left serving: the new process exits 75
    /// with one line saying why, and the old one answers once it runs again.
    @Test func aServerThatDoesNotHandOverKeepsServingAndTheNewOneExits75() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = try await start()
        old.send(signal: SIGSTOP)
        let result = try await ServerProcess.run(
            [
                "serve", "--port", String(old.port), "--store", "sqlite", "--data-dir", directory, "--take-over",
                "--take-over-timeout", "1",
            ])
        old.send(signal: SIGCONT)
        #expect(result.status == 75)
        #expect(result.stderr.contains("did not hand over its sockets"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        let health = try await ProcessHTTP.request(old.port, "GET", "/healthz")
        #expect(health.status == 200)
        old.send(signal: SIGTERM)
        #expect(try await old.waitForExit() == 0)
    }

    /// A new process whose wait for the data directory's lock times out (the old one's drain is held up by a request
    /// that never ends) exits 75 with one line saying why; the old one, once drained and closed, opens the store
    /// again and serves on its sockets: a request made while it drained is answered.
    @Test func aLockWaitThatTimesOutLeavesTheOldOneServing() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory],
            environment: ["VIEWHOST_TIMEOUTS_DRAIN_SECONDS": "4"])
        let port = old.port
        // A request whose body never comes: the drain waits for it until its timeout.
        let stuck = try HTTPTestClient(port: port)
        try stuck.send("POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        let result = try await ServerProcess.run(
            [
                "serve", "--port", String(port), "--store", "sqlite", "--data-dir", directory, "--take-over",
                "--take-over-timeout", "1",
            ], timeout: .seconds(60))
        #expect(result.status == 75)
        #expect(result.stderr.contains("did not release the data directory"), "\(result.stderr)")
        #expect(
            result.stderr.split(separator: "\n").filter { $0.hasPrefix("viewhost: ") }.count == 1,
            "one line saying why, besides the log: \(result.stderr)")
        // Made while the old process still drains (it accepts nothing then): it queues, and is answered once the
        // old process serves again. Before, the old process exited after its drain and this was refused.
        let queued = try await ProcessHTTP.request(port, "GET", "/healthz", timeout: .seconds(60))
        #expect(queued.status == 200)
        let traffic = ProcessTraffic(port: port)
        #expect(await traffic.flows(20), "requests flow once the old process serves again")
        let failed = await traffic.stop()
        #expect(failed.isEmpty, "\(failed)")
        // The log is written in batches, a moment after the line is made.
        #expect(
            await eventually { old.standardErrorText().contains("serving again on the same sockets") },
            "\(old.standardErrorText())")
        old.send(signal: SIGTERM)
        #expect(try await old.waitForExit() == 0)
    }

    @Test func anotherPortIsRefusedWith64AndTheServerKeepsServing() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = try await start()
        let other = try TestSockets.tcp()
        close(other.fd)
        let result = try await ServerProcess.run(
            ["serve", "--port", String(other.port), "--store", "sqlite", "--data-dir", directory, "--take-over"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("not on port \(other.port)"), "\(result.stderr)")
        #expect(try await ProcessHTTP.request(old.port, "GET", "/healthz").status == 200)
        old.send(signal: SIGTERM)
        #expect(try await old.waitForExit() == 0)
    }
}
