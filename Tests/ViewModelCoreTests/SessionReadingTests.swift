import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewHostLocking
import ViewModelCore

/// Reads of a session whose writes wait for their commit: a reader is served the newest durable version, and when
/// the core moved past it before anybody read it, the reader waits for one commit, never for a quiet moment.
struct SessionReadingTests {
    let scheduler = ManualScheduler()
    let journal = HeldJournal()
    let probe = UUID().uuidString

    func makeSession() -> Session {
        Session(
            id: .random(), token: .random(), environment: SessionEnvironment(scheduler: scheduler, journal: journal),
            random: .seeded(7), features: [InitialFeature(Counter.key, state: Counter.State(probe: probe))])
    }

    static func count(_ version: Int, _ viewModel: any ViewModel) -> Int {
        (viewModel as! Counter.Snapshot).count
    }

    /// Two increments wait for their commits, nobody read version 1: a reader waits. A third increment comes
    /// while it waits; once the first two are committed the reader gets version 3 (count 2), kept for it, though
    /// the core is at version 4 by then.
    @Test func aReaderWaitsForOneCommitHoweverWritesFollowEachOther() async throws {
        let session = makeSession()
        try session.send([.increment], to: Counter.key)
        try session.send([.increment], to: Counter.key)
        guard case .pending = session.representation(of: "counter", make: Self.count) else {
            Issue.record("version 1 was never made and the core moved past it")
            return
        }
        let reader = Task { try await session.waitForRepresentation(of: "counter", make: Self.count) }
        #expect(await journal.waitForEntries(2))
        // Let the reader register before the third write (it waits on the second entry's commit).
        #expect(await eventually { session.isWaitedOn("counter") })
        try session.send([.increment], to: Counter.key)
        journal.release(2)
        let read = try await reader.value
        #expect(read.ready?.version == 3)
        #expect(read.ready?.value == 2)
        #expect(session.version(of: "counter") == 3, "version 4 is not durable yet")
        journal.release(1)
        #expect(await eventually { session.representation(of: "counter", make: Self.count).ready?.version == 4 })
    }

    /// The store could not keep the writes the reader waited for: the session closed itself, and the reader is
    /// told so (the app loads the durable value again), never served what was not kept.
    @Test func aReaderWhoseWaitedForCommitFailsIsToldTheCopyIsGone() async throws {
        let session = makeSession()
        try session.send([.increment], to: Counter.key)
        try session.send([.increment], to: Counter.key)
        let reader = Task { try await session.waitForRepresentation(of: "counter", make: Self.count) }
        #expect(await eventually { session.isWaitedOn("counter") })
        journal.release(2, durable: false)
        await #expect(throws: SessionError.self) { try await reader.value }
        #expect(session.isClosed)
    }
}

/// A journal that holds every entry until the test releases it, in order: what the store's commit latency is to a
/// session, made as long as a test needs.
final class HeldJournal: SessionJournal {
    private let held = Locked<[(entry: JournalEntry, completion: @Sendable (Bool) -> Void)]>([])

    func append(_ entry: JournalEntry, completion: @escaping @Sendable (Bool) -> Void) -> Int {
        held.withLock { $0.append((entry, completion)) }
        return 0
    }

    /// Waits until `count` entries are held.
    func waitForEntries(_ count: Int) async -> Bool {
        await eventually { held.withLock { $0.count } >= count }
    }

    /// Completes the oldest `count` held entries, as durable or failed.
    func release(_ count: Int, durable: Bool = true) {
        let released = held.withLock { held in
            let first = Array(held.prefix(count))
            held.removeFirst(first.count)
            return first
        }
        for (_, completion) in released { completion(durable) }
    }
}

/// A session dropped from memory while its write is in the journal (another node took it over, or the node lost
/// the store and dropped every copy) is still answered: the request waiting on the write hears whether it was kept.
/// Before, the journal's completion held the session weakly, found it gone, and the request got no answer at all.
struct DroppedSessionCommitTests {
    @Test(arguments: [true, false])
    func aWriteOfADroppedSessionIsStillAnswered(durable: Bool) async throws {
        let journal = HeldJournal()
        var session: Session? = Session(
            id: .random(), token: .random(),
            environment: SessionEnvironment(scheduler: ManualScheduler(), journal: journal),
            random: .seeded(7), features: [InitialFeature(Counter.key, state: Counter.State(probe: UUID().uuidString))])
        let ticket = try #require(
            try session?.submit(Submission(events: [Counter.Event.increment]), to: Counter.key).durable)
        #expect(await journal.waitForEntries(1))
        weak let dropped = session
        session = nil  // nothing holds the session now but what waits on its write
        let answer = Locked<Result<Void, SessionError>?>(nil)
        ticket.whenResolved { result in answer.withLock { $0 = result } }
        journal.release(1, durable: durable)
        #expect(await eventually { answer.withLock { $0 } != nil })
        switch answer.withLock({ $0 }) {
        case .success?: #expect(durable)
        case .failure?: #expect(!durable)
        case nil: Issue.record("the request waiting on the write got no answer")
        }
        #expect(dropped == nil, "the session goes once its write is answered")
    }
}
