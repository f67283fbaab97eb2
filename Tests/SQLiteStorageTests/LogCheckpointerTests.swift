import Foundation
import GRDB
import Testing
import TestSupport
import ViewModelCore

@testable import SQLiteStorage

/// The write-ahead log is copied into the main file by the store's checkpointer, on a connection of its own, not by
/// the writer after one of its commits: SQLite's own checkpoint is put off to four times its default length.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct LogCheckpointerTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-ckpt-\(UUID().uuidString)").path
    let scheduler = ManualScheduler()

    /// The main file's size in bytes.
    private func mainFileBytes() throws -> Int {
        try FileManager.default.attributesOfItem(atPath: directory + "/viewhost.sqlite")[.size] as? Int ?? -1
    }

    /// The length of log, in pages, past which the store's writer connection checkpoints after a commit.
    private func writerCheckpointPages(_ storage: SQLiteSessionStorage) throws -> Int? {
        try storage.pool.write { try Int.fetchOne($0, sql: "PRAGMA wal_autocheckpoint") }
    }

    /// Far fewer commits than SQLite's own checkpoint waits for (1,000 pages), but more than the checkpointer's:
    /// what they wrote reaches the main file while the store is open, and the writer's threshold is the backstop's.
    @Test func theCommitsOfAFewSecondsReachTheMainFileWithoutTheWriter() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = try SQLiteSessionStorage(directory: directory, sync: .full, features: Tally.types)
        #expect(try writerCheckpointPages(storage) == LogCheckpointer.writerCheckpointPages)
        let (session, _) = try await SQLiteSessionStorageTests.makeSession(storage, scheduler: scheduler)
        let before = try mainFileBytes()
        let commits = LogCheckpointer.commitsPerCheckpoint + 20
        for amount in 1...commits {
            // A few hundred bytes each, so that the log grows by pages, not by bytes within one.
            let (_, durable) = try session.submit(
                Submission(events: Array(repeating: Tally.Event.add(amount), count: 40), idempotency: nil), to: Tally.key)
            try await durable?.value()
        }
        let logPages = (try FileManager.default.attributesOfItem(atPath: directory + "/viewhost.sqlite-wal")[.size] as? Int ?? 0) / 4096
        #expect(logPages < 1_000, "the test's commits alone must not reach SQLite's own threshold (\(logPages) pages)")
        let deadline = TestDeadline.after(.seconds(20))
        while storage.statements.checkpointer.checkpoints == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(storage.statements.checkpointer.checkpoints >= 1)
        #expect(try mainFileBytes() > before, "the main file holds what the log held")
        storage.close()
        // Closed, the store is its one file, with everything in it.
        #expect(!FileManager.default.fileExists(atPath: directory + "/viewhost.sqlite-wal"))
        let reopened = try SQLiteSessionStorage(directory: directory, sync: .full, features: Tally.types)
        defer { reopened.close() }
        guard case .found(let stored) = try reopened.load(session.id) else {
            Issue.record("the session is gone")
            return
        }
        #expect(stored.journalNumber == commits)
    }
}
