import Foundation
import SQLiteStorage
import Synchronization
import Testing
import TestSupport
import ViewHostLocking
@testable import ViewModelCore

/// Events of one session posted from many threads at once: the journal gets them in number order, so the store
/// keeps every one (before, a thread that numbered entry 6 could hand it over before entry 5's thread did, and
/// the store refused 6 as a gap: a `503` under concurrent posts to one session).
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ConcurrentSubmitTests {
    /// A journal that records the order entries arrive in and keeps them all.
    final class OrderRecorder: SessionJournal {
        let numbers = Locked<[Int]>([])

        func append(_ entry: JournalEntry, completion: @escaping @Sendable (Bool) -> Void) -> Int {
            numbers.withLock { $0.append(entry.number) }
            completion(true)
            return 0
        }
    }

    /// Runs `work` on `count` threads of their own at once. Not `DispatchQueue.concurrentPerform`: called from a
    /// test's task it blocks a thread of the cooperative pool (two here) while its iterations wait for the same
    /// pool, and two such tests at once deadlocked the whole test run under load.
    static func onThreads(_ count: Int, _ work: @escaping @Sendable () -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<count { group.addTask { try await OffThread.run(work) } }
            try await group.waitForAll()
        }
    }

    @Test func entriesReachTheJournalInNumberOrder() async throws {
        let journal = OrderRecorder()
        let session = Session(
            id: .random(), token: SessionToken(secret: .random()),
            environment: SessionEnvironment(scheduler: ManualScheduler(), journal: journal), random: .seeded(1),
            features: [InitialFeature(Tally.key, state: Tally.State())])
        let threads = 8
        let perThread = 250
        try await Self.onThreads(threads) {
            for _ in 0..<perThread {
                _ = try? session.submit(Submission(events: [Tally.Event.add(1)]), to: Tally.key)
            }
        }
        try await session.committed()
        let numbers = journal.numbers.withLock { $0 }
        #expect(numbers == Array(1...(threads * perThread)))
    }

    @Test func theSQLiteStoreKeepsEveryOneOfThem() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-sqlite-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = try SQLiteSessionStorage(directory: directory, sync: .normal, features: Tally.types)
        let session = Session(
            id: .random(), token: SessionToken(secret: .random()),
            environment: SessionEnvironment(scheduler: ManualScheduler(), journal: storage), random: .seeded(2),
            features: [InitialFeature(Tally.key, state: Tally.State())])
        let stored = CommitTicket()
        try storage.create(
            StoredSession(
                id: session.id, token: session.token, createdAt: session.createdAt, lastAccess: session.lastAccess,
                core: session.core, journalNumber: 0)
        ) { stored.resolve($0 ? .success(()) : .failure(.unavailable)) }
        try await stored.value()

        let refused = Atomic<Int>(0)
        let tickets = Locked<[CommitTicket]>([])
        try await Self.onThreads(4) {
            for _ in 0..<200 {
                do {
                    let (_, durable) = try session.submit(Submission(events: [Tally.Event.add(1)]), to: Tally.key)
                    if let durable { tickets.withLock { $0.append(durable) } }
                } catch {
                    refused.add(1, ordering: .relaxed)
                }
            }
        }
        for ticket in tickets.withLock({ $0 }) { try await ticket.value() }
        #expect(refused.load(ordering: .relaxed) == 0)
        storage.close()
        let reopened = try SQLiteSessionStorage(directory: directory, sync: .normal, features: Tally.types)
        guard case .found(let back) = try reopened.load(session.id) else {
            Issue.record("the session is gone")
            return
        }
        #expect(back.journalNumber == 800)
        #expect(back.core == session.core)
        reopened.close()
    }
}
