import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The ledger that finds acknowledged records lost cannot be switched off unseen: emptied or deleted while the
/// write-ahead log may hold what it vouches for (a server killed), the server refuses to start and `check` says so,
/// until `repair` starts a new one and says it did; damaged, `repair` says what it replaced. A ledger deleted after
/// a clean stop, when the file holds every commit, is no fault.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(4))))
struct StoreLedgerProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-ledger-\(UUID().uuidString)").path
    var file: String { directory + "/viewhost.sqlite" }
    var ledger: String { file + "-ledger" }

    func start() async throws -> ServerProcess {
        try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory],
            environment: ["VIEWHOST_LOG_ACCESS": "false"])
    }

    func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ServerProcess.run(arguments + ["--data-dir", directory])
    }

    /// Three busy sessions, then SIGKILL: their last commits are only in the write-ahead log.
    func killedWithCommitsInTheLog() async throws -> [(id: String, token: String, version: Int)] {
        let server = try await start()
        let sessions = try await StoreDamageProcessTests.busySessions(server.port, count: 3, events: 20)
        server.send(signal: SIGKILL)
        _ = try await server.waitForExit()
        return sessions
    }

    /// A damaged log frame dropped acknowledged records, and the ledger that would say so was emptied or deleted:
    /// the server started and `check` said "sound" (13 acknowledged records went unnoticed). Now the start is
    /// refused (65, one line naming the ledger) and `check` names it, and so they stay until `repair` starts a new
    /// ledger and says so; then the server starts.
    @Test(arguments: ["emptied", "deleted"])
    func aLedgerEmptiedOrDeletedBesideALogIsFoundUntilRepairStartsANewOne(_ how: String) async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try await killedWithCommitsInTheLog()
        try StoreDamageProcessTests.damageMiddleFrame(ofLogOf: file)
        if how == "emptied" {
            #expect(truncate(ledger, 0) == 0)
        } else {
            try FileManager.default.removeItem(atPath: ledger)
        }
        let words = how == "emptied" ? "it is empty" : "it is missing"

        let refused = try await run(["serve", "--port", "0", "--store", "sqlite"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("viewhost: \(ledger): \(words)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("viewhost repair"), "\(refused.stderr)")
        let check = try await run(["check"])
        #expect(check.status == 65, "\(check.stderr)")
        #expect(check.stderr.contains("\(ledger): \(words)"), "\(check.stderr)")
        // Refused again: the refusal itself made no ledger.
        #expect(try await run(["serve", "--port", "0", "--store", "sqlite"]).status == 65)

        let repair = try await run(["repair"])
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(!repair.stdout.contains("nothing to repair"), "\(repair.stdout)")
        #expect(repair.stdout.contains("\(ledger): \(words)") && repair.stdout.contains("started a new ledger"), "\(repair.stdout)")
        #expect(try await run(["check"]).status == 0)
        let server = try await start()
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// A ledger damaged in its middle (its CRC fails) refuses the start; `repair` replaced it and said "nothing to
    /// repair". Now it says it started a new one in place of the damaged one.
    @Test func repairOfADamagedLedgerSaysItReplacedIt() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try await killedWithCommitsInTheLog()
        let handle = try FileHandle(forUpdatingAtPath: ledger).unwrap()
        let size = try handle.seekToEnd()
        try #require(size > 200, "the ledger holds the commits (\(size) bytes)")
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4))
        try handle.close()
        let refused = try await run(["serve", "--port", "0", "--store", "sqlite"])
        #expect(refused.status == 65 && refused.stderr.contains("damaged at byte"), "\(refused.stderr)")

        let repair = try await run(["repair"])
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(!repair.stdout.contains("nothing to repair"), "\(repair.stdout)")
        #expect(repair.stdout.contains("damaged at byte") && repair.stdout.contains("started a new ledger"), "\(repair.stdout)")
        #expect(try await run(["check"]).status == 0)
    }

    /// After a clean stop the file holds every commit and no log is left: a ledger deleted then hides nothing, and
    /// the server starts. A ledger deleted while the server runs is made again, so a server killed later still has
    /// one at its next start.
    @Test func aLedgerDeletedAfterACleanStopOrWhileServingRefusesNothing() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await start()
        var sessions = try await StoreDamageProcessTests.busySessions(server.port, count: 2, events: 5)
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        try FileManager.default.removeItem(atPath: ledger)
        #expect(try await run(["check"]).status == 0)

        server = try await start()
        try FileManager.default.removeItem(atPath: ledger)
        #expect(await eventually(timeout: .seconds(30)) { FileManager.default.fileExists(atPath: ledger) }, "made again")
        sessions += try await StoreDamageProcessTests.busySessions(server.port, count: 2, events: 5)
        server.send(signal: SIGKILL)
        _ = try await server.waitForExit()
        server = try await start()
        for session in sessions {
            let read = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(session.id)/person", token: session.token)
            #expect(ProcessHTTP.json(read)?["version"] as? Int == session.version, "\(read)")
        }
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }
}
