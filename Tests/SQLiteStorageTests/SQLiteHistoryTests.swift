import Foundation
import SQLiteStorage
import Testing
import TestSupport
import ViewHostLocking
@testable import ViewModelCore

/// The store's history: the snapshots it took kept as checkpoints and the journal records after the oldest, as
/// many as it was told to keep, read back into every version the session made.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(1))))
struct SQLiteHistoryTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-history-\(UUID().uuidString)").path
    let scheduler = ManualScheduler()

    func open(history: Int) throws(StorageError) -> SQLiteSessionStorage {
        try SQLiteSessionStorage(directory: directory, sync: .normal, features: Tally.types, historyInputs: history)
    }

    func makeSession(_ storage: SQLiteSessionStorage) async throws -> Session {
        try await SQLiteSessionStorageTests.makeSession(storage, scheduler: scheduler).0
    }

    @Test func everyVersionWithinTheBoundIsKeptAndReadsBackAsItWas() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = try open(history: 100)
        let session = try await makeSession(storage)
        let seen = Locked<[Int: Tally.Snapshot]>([:])
        session.record(Tally.key) { version, snapshot in seen.withLock { $0[version] = snapshot } }
        for amount in 1...300 { try session.send(amount % 3 == 0 ? [.add(amount), .add(1)] : [.add(amount)], to: Tally.key) }
        try await session.committed()
        // As written, then closed (which closes its connections and releases the directory) and opened again.
        try check(storage, session: session, seen: seen.withLock { $0 })
        storage.close()
        let reopened = try open(history: 100)
        defer { reopened.close() }
        try check(reopened, session: session, seen: seen.withLock { $0 })
    }

    private func check(_ reopened: SQLiteSessionStorage, session: Session, seen expected: [Int: Tally.Snapshot]) throws {
        let checkpoints = try reopened.checkpoints(of: session.id)
        let oldest = try #require(checkpoints.first)
        // Snapshots are 64 to 256 inputs apart (their spacing follows their size: the log grows the value).
        let numbers = checkpoints.map(\.number)
        let gaps = zip(numbers, numbers.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { (Session.snapshotInterval...Session.longestSnapshotInterval).contains($0) }, "\(numbers)")
        #expect(numbers.last.map { 300 - $0 < Session.longestSnapshotInterval } == true, "\(numbers)")
        #expect((100..<(100 + 2 * Session.longestSnapshotInterval)).contains(300 - oldest.number), "\(oldest.number)")
        let (versions, records) = try HistoryWalk.versions(of: "tally", session: session.id, in: reopened)
        #expect(records == Array((oldest.number + 1)...300))
        let latest = try #require(session.version(of: "tally"))
        #expect(Set(versions.keys) == Set((try #require(oldest.versions["tally"]))...latest))
        for (version, viewModel) in versions where expected[version] != nil {
            #expect(viewModel as? Tally.Snapshot == expected[version], "version \(version)")
        }
        // What a restart loads is untouched by the history kept beside it.
        guard case .found(let stored) = try reopened.load(session.id) else {
            Issue.record("the session is gone")
            return
        }
        #expect(stored.core == session.core)
        #expect(stored.journalNumber == 300)
    }

    /// Without history, the file keeps what a load needs (the newest snapshot and the records after it) and the
    /// history reads give none of it, as the memory store holds none: they gave the snapshot and its records, so
    /// `?version=N`, `/versions` and the export served versions the memory store answers `410`. A store that kept
    /// history in an earlier run reads none either once opened without.
    @Test func withoutHistoryOnlyWhatALoadNeedsIsKeptAndNoneIsRead() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = try open(history: 0)
        let session = try await makeSession(storage)
        for _ in 0..<(Session.snapshotInterval * 2 + 5) { try session.send([.add(1)], to: Tally.key) }
        try await session.committed()
        #expect(try SQLiteTestQueries.snapshotNumbers(in: directory, of: session.id) == [Session.snapshotInterval * 2])
        #expect(try SQLiteTestQueries.journalRows(in: directory, of: session.id) == 5)
        #expect(try storage.checkpoints(of: session.id).isEmpty)
        #expect(try storage.checkpoint(of: session.id, at: Session.snapshotInterval * 2) == nil)
        #expect(try storage.records(of: session.id, after: 0, limit: 100).isEmpty)
        storage.close()

        let kept = try open(history: 100)
        let other = try await makeSession(kept)
        for _ in 0..<(Session.snapshotInterval + 5) { try other.send([.add(1)], to: Tally.key) }
        try await other.committed()
        #expect(try kept.checkpoints(of: other.id).count == 2)
        kept.close()
        let without = try open(history: 0)
        defer { without.close() }
        #expect(try without.checkpoints(of: other.id).isEmpty)
        #expect(try without.records(of: other.id, after: 0, limit: 100).isEmpty)
        guard case .found(let stored) = try without.load(other.id) else {
            Issue.record("the session is gone")
            return
        }
        #expect(stored.journalNumber == Session.snapshotInterval + 5, "what a load needs is read as before")
    }

    @Test func aRemovedOrExpiredSessionLeavesNoHistory() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = try open(history: 1000)
        let removed = try await makeSession(storage)
        let expired = try await makeSession(storage)
        for session in [removed, expired] {
            for _ in 0..<70 { try session.send([.add(1)], to: Tally.key) }
            try await session.committed()
            #expect(try storage.checkpoints(of: session.id).count == 2)
        }
        let done = CommitTicket()
        storage.remove(removed.id, expiredAt: nil) { done.resolve($0 ? .success(()) : .failure(.unavailable)) }
        try await done.value()
        let expiredCount = storage.expire(
            idleBefore: scheduler.now.addingTimeInterval(60), forgetBefore: .distantPast, except: { $0 == removed.id })
        #expect(expiredCount == 1)
        for session in [removed, expired] {
            #expect(try storage.checkpoints(of: session.id).isEmpty)
            #expect(try storage.records(of: session.id, after: 0, limit: 10).isEmpty)
            #expect(try storage.checkpoint(of: session.id, at: 0) == nil)
        }
    }
}
