import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `viewhost backup` copies only a store that is sound: one that `check` finds damaged or a server refuses (records
/// lost from a damaged log, a ledger emptied, a damaged page) is refused with 65 and one line naming why, and no
/// copy is left (it exited 0, and the copy, restored, started and served versions the store had lost). A copy that
/// is kept, restored into a new directory, starts, and from then on finds loss as its store did.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(4))))
struct StoreBackupProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-backup-\(UUID().uuidString)").path
    var file: String { directory + "/data/viewhost.sqlite" }
    var output: String { directory + "/copy.sqlite" }

    func start(_ data: String) async throws -> ServerProcess {
        try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", data],
            environment: ["VIEWHOST_LOG_ACCESS": "false"])
    }

    func backup() async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ServerProcess.run(["backup", "--data-dir", directory + "/data", "--output", output])
    }

    /// The store after three busy sessions and SIGKILL (their last commits only in the write-ahead log).
    func killedStore() async throws {
        let server = try await start(directory + "/data")
        _ = try await StoreDamageProcessTests.busySessions(server.port, count: 3, events: 20)
        server.send(signal: SIGKILL)
        _ = try await server.waitForExit()
    }

    /// Refused, as `check` refuses it: 65, one line naming the store, `words` and that no backup was written; no copy.
    func expectRefused(_ words: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let refused = try await backup()
        #expect(refused.status == 65, "\(refused.stderr)", sourceLocation: sourceLocation)
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)", sourceLocation: sourceLocation)
        #expect(refused.stderr.hasPrefix("viewhost: \(file): no backup was written"), "\(refused.stderr)", sourceLocation: sourceLocation)
        #expect(refused.stderr.contains(words), "\(refused.stderr)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: output), "no copy is left", sourceLocation: sourceLocation)
        #expect(try await ServerProcess.run(["check", "--data-dir", directory + "/data"]).status == 65, sourceLocation: sourceLocation)
    }

    @Test func aStoreWhoseLogLostAcknowledgedRecordsIsNotBackedUp() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await killedStore()
        try StoreDamageProcessTests.damageMiddleFrame(ofLogOf: file)
        try await expectRefused("acknowledged journal records are missing")
    }

    @Test func aStoreWhoseLedgerWasEmptiedIsNotBackedUp() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await killedStore()
        #expect(truncate(file + "-ledger", 0) == 0)
        try await expectRefused("viewhost.sqlite-ledger: it is empty")
    }

    @Test func aStoreWithADamagedPageIsNotBackedUp() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await start(directory + "/data")
        _ = try await StoreDamageProcessTests.busySessions(server.port, count: 6, events: 10)
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        let pages = Int(try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)) / 4096
        try #require(pages > 6)
        let handle = try FileHandle(forUpdatingAtPath: file).unwrap()
        try handle.seek(toOffset: UInt64(pages / 2 * 4096))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try handle.close()
        try await expectRefused("damaged: SQLite")
    }

    /// A backup taken while the server runs, restored alone into a new directory (as README says), is sound and
    /// serves every session as it was answered; the server on it keeps a ledger, so when it is killed and that
    /// ledger emptied, the next start is refused as on any store.
    @Test func aRestoredBackupServesAsAnsweredAndStillFindsLoss() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await start(directory + "/data")
        let sessions = try await StoreDamageProcessTests.busySessions(server.port, count: 3, events: 10)
        let made = try await backup()
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("backed up 3 sessions"), "\(made.stdout)")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)

        let restored = directory + "/restored"
        try FileManager.default.createDirectory(atPath: restored, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: output, toPath: restored + "/viewhost.sqlite")
        let check = try await ServerProcess.run(["check", "--data-dir", restored])
        #expect(check.status == 0 && check.stdout.contains("is sound (3 sessions)"), "\(check.stdout)\(check.stderr)")
        var copy = try await start(restored)
        for session in sessions {
            let read = try await ProcessHTTP.request(copy.port, "GET", "/v1/sessions/\(session.id)/person", token: session.token)
            #expect(ProcessHTTP.json(read)?["version"] as? Int == session.version, "\(read)")
        }
        _ = try await StoreDamageProcessTests.busySessions(copy.port, count: 2, events: 5)
        copy.send(signal: SIGKILL)
        _ = try await copy.waitForExit()
        #expect(truncate(restored + "/viewhost.sqlite-ledger", 0) == 0)
        let refused = try await ServerProcess.run(["serve", "--port", "0", "--store", "sqlite", "--data-dir", restored])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("viewhost.sqlite-ledger: it is empty"), "\(refused.stderr)")
        _ = try await ServerProcess.run(["repair", "--data-dir", restored])
        copy = try await start(restored)
        copy.send(signal: SIGTERM)
        #expect(try await copy.waitForExit() == 0)
    }
}
