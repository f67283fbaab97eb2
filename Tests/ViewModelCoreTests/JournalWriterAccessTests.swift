import Dispatch
import Foundation
import Testing
import TestSupport
import ViewHostLocking
import ViewModelCore

/// Last-use times go to the store a few hundred per transaction, so a commit queued behind a flush of many sessions
/// waits for one part of it, not for all of it.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(1))))
struct JournalWriterAccessTests {
    /// Statements that only record what each transaction wrote; the first transaction waits for `release`.
    final class RecordingStatements: JournalStatements {
        let transactions = Locked<[[JournalWrite]]>([])
        let firstStarted = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        var probeInterval: Double { 60 }

        func transaction(_ body: ([JournalWrite]) throws -> Void) throws {
            if transactions.withLock({ $0.isEmpty }) {
                firstStarted.signal()
                release.wait()
            }
            try body([])
        }

        func apply(_ write: JournalWrite, in connection: [JournalWrite]) throws -> Bool { true }

        func apply(_ writes: [JournalWrite], in connection: [JournalWrite]) throws -> [Bool] {
            transactions.withLock { $0.append(writes) }
            return writes.map { _ in true }
        }

        func probe() throws {}

        func health(after error: any Error) -> StorageHealth { .failing(String(describing: error)) }
    }

    @Test func aFlushOfManySessionsGoesInPartsAndACommitQueuedMeanwhileWaitsForOnePart() throws {
        let statements = RecordingStatements()
        let writer = JournalWriter(label: "test.access", statements: statements)
        let sessions = 3 * JournalWriter<RecordingStatements>.accessTimesPerWrite + 10
        let times = (0..<sessions).map { (SessionID("session-\($0)"), Date(timeIntervalSince1970: Double($0))) }
        writer.enqueueAccess(times)
        statements.firstStarted.wait()
        // A session's removal, queued while the flush's first part is being written.
        let removed = Locked<Bool?>(nil)
        writer.enqueue(.remove(SessionID("gone"), expiredAt: nil)) { durable in removed.withLock { $0 = durable } }
        statements.release.signal()
        writer.drainAndStop()

        let transactions = statements.transactions.withLock { $0 }
        let parts = transactions.map { writes in
            writes.reduce(0) { count, write in
                if case .access(let times) = write { return count + times.count }
                return count
            }
        }
        #expect(parts.allSatisfy { $0 <= JournalWriter<RecordingStatements>.accessTimesPerWrite }, "\(parts)")
        #expect(parts.reduce(0, +) == sessions)
        #expect(parts.count == 4)
        let removal = transactions.firstIndex { writes in
            writes.contains { if case .remove = $0 { return true } else { return false } }
        }
        #expect(removal == 1, "the removal is written with the flush's second part, not after its last")
        #expect(removed.withLock { $0 } == true)
    }
}
