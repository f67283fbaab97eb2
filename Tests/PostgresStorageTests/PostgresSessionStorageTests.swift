import Foundation
import PostgresStorage
import Testing
import TestSupport
import ViewHostLocking
import ViewModelCore

/// The PostgreSQL store against a real server (started per suite on a Unix socket): a value comes back as it was
/// stored, a takeover fences the old owner's writes and tells it, and a newer schema is refused. One test at a
/// time: each has a server of its own, and four initdb runs at once would take both cores from the other suites.
@Suite(.serialized)
final class PostgresSessionStorageTests {
    let server: PostgresServer
    let types = FeatureTypes([Tally.self])
    let start = Date(timeIntervalSince1970: 1_795_442_400)

    init() async throws {
        server = try await PostgresServer()
    }
    // The server stops when the suite instance goes (PostgresServer's deinit).

    func newSession(_ storage: PostgresSessionStorage) async throws -> (SessionID, SessionCore) {
        let id = SessionID.random()
        let core = SessionCore(
            settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(Tally.key, state: Tally.State())])
        let stored = await withCheckedContinuation { continuation in
            storage.creating(
                StoredSession(
                    id: id, token: SessionToken(secret: SessionSecret.random()), createdAt: start, lastAccess: start,
                    core: core, journalNumber: 0)
            ) { continuation.resume(returning: $0) }
        }
        #expect(stored)
        return (id, core)
    }

    /// Applies `add(amount)` to `core` and appends it as entry `number`; returns whether the store took it.
    func add(
        _ amount: Int, number: Int, to core: inout SessionCore, id: SessionID, storage: PostgresSessionStorage,
        snapshot: Bool = false
    ) async throws -> Bool {
        let input = SessionInput.events(
            feature: "tally", at: start, source: .client, events: try core.encodeEvents([Tally.Event.add(amount)], of: "tally"))
        try core.replay(input)
        let entry = JournalEntry(
            session: id, number: number, input: input, snapshot: snapshot ? core : nil, nextDueAt: nil, lastAccess: start)
        return await withCheckedContinuation { continuation in
            storage.appending(entry) { continuation.resume(returning: $0) }
        }
    }

    @Test func aValueComesBackAsStoredThroughSnapshotAndJournal() async throws {
        let storage = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        defer { storage.close() }
        var (id, core) = try await newSession(storage)
        for number in 1...5 {
            #expect(try await add(number, number: number, to: &core, id: id, storage: storage, snapshot: number == 3))
        }
        guard case .found(let loaded) = try storage.load(id) else {
            Issue.record("session not found")
            return
        }
        #expect(loaded.core == core)
        #expect(loaded.journalNumber == 5)
        #expect(loaded.core.state(of: Tally.key)?.total == 15)
        guard case .none = try storage.load(SessionID.random()) else {
            Issue.record("an unknown id was found")
            return
        }
    }

    /// Records queued together (a batch writes runs of plain records in one statement): several sessions, several
    /// records of one session, and a record with a gap (refused, and the rest kept) all come back as they should.
    @Test func recordsQueuedTogetherAreEachKeptOrRefusedAsAlone() async throws {
        let storage = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        defer { storage.close() }
        var sessions: [(SessionID, SessionCore)] = []
        for _ in 0..<3 { sessions.append(try await newSession(storage)) }
        var entries: [(JournalEntry, expected: Bool)] = []
        for (slot, counts) in [(0, 1...4), (1, 1...2)] {
            var core = sessions[slot].1
            for number in counts {
                let input = SessionInput.events(
                    feature: "tally", at: start, source: .client,
                    events: try core.encodeEvents([Tally.Event.add(number)], of: "tally"))
                try core.replay(input)
                entries.append(
                    (JournalEntry(session: sessions[slot].0, number: number, input: input, snapshot: nil, nextDueAt: nil,
                                  lastAccess: start), true))
            }
            sessions[slot].1 = core
        }
        // Record 2 of a session that has no record 1: a gap.
        let gap = SessionInput.events(
            feature: "tally", at: start, source: .client, events: try sessions[2].1.encodeEvents([Tally.Event.add(7)], of: "tally"))
        entries.append((JournalEntry(session: sessions[2].0, number: 2, input: gap, snapshot: nil, nextDueAt: nil, lastAccess: start), false))
        let results = Locked<[Int: Bool]>([:])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let left = Locked(entries.count)
            for (index, entry) in entries.enumerated() {
                storage.appending(entry.0) { durable in
                    results.withLock { $0[index] = durable }
                    if left.withLock({ $0 -= 1; return $0 }) == 0 { done.resume() }
                }
            }
        }
        for (index, entry) in entries.enumerated() {
            #expect(results.withLock { $0[index] } == entry.expected, "\(entry.0.session) record \(entry.0.number)")
        }
        for (slot, (id, core)) in sessions.enumerated() {
            guard case .found(let loaded) = try storage.load(id) else {
                Issue.record("session \(slot) not found")
                continue
            }
            #expect(loaded.core == core)
            #expect(loaded.journalNumber == [4, 2, 0][slot])
        }
    }

    @Test func aTakeoverFencesTheOldOwnerAndTellsIt() async throws {
        let first = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        let second = try PostgresSessionStorage(url: server.url, node: "b", features: types)
        defer {
            first.close()
            second.close()
        }
        let lost = Locked<[OwnershipLoss]>([])
        first.onOwnershipLoss { loss in lost.withLock { $0.append(loss) } }
        var (id, core) = try await newSession(first)
        #expect(try await add(1, number: 1, to: &core, id: id, storage: first))

        guard case .found(let taken) = try second.load(id) else {
            Issue.record("session not found")
            return
        }
        #expect(taken.journalNumber == 1)
        var stale = core
        #expect(try await !add(10, number: 2, to: &stale, id: id, storage: first))
        var current = taken.core
        #expect(try await add(2, number: 2, to: &current, id: id, storage: second))
        #expect(await eventually { lost.withLock { $0.contains(.session(id)) } })

        // The old owner takes it back by loading: it sees the new owner's write, never its own refused one.
        guard case .found(let back) = try first.load(id) else {
            Issue.record("session not found")
            return
        }
        #expect(back.core.state(of: Tally.key)?.total == 3)
        #expect(back.journalNumber == 2)
    }

    /// A node whose app does not register a feature the shared sessions hold refuses to start, naming it; one that
    /// does opens, and the session is there.
    @Test func sessionsOfAFeatureTheAppDoesNotRegisterRefuseTheNode() async throws {
        try await server.createDatabase("schemas")
        let url = server.url(database: "schemas")
        let first = try PostgresSessionStorage(url: url, node: "a", features: types)
        var (id, core) = try await newSession(first)
        #expect(try await add(1, number: 1, to: &core, id: id, storage: first))
        first.close()
        do {
            _ = try PostgresSessionStorage(url: url, node: "b", features: FeatureTypes([]))
            Issue.record("a node that does not register 'tally' opened the database")
        } catch {
            guard case .unusable(_, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason == "the store holds sessions with feature 'tally', which this app does not register (stored: tally 1)")
        }
        let again = try PostgresSessionStorage(url: url, node: "b", features: types)
        defer { again.close() }
        guard case .found(let loaded) = try again.load(id) else {
            Issue.record("the session is gone")
            return
        }
        #expect(loaded.core == core)
    }

    @Test func aDatabaseFromANewerVersionIsRefused() async throws {
        try await server.createDatabase("newer")
        let url = server.url(database: "newer")
        _ = try PostgresSessionStorage(url: url, node: "a", features: types)
        _ = try await ServerProcess.run(
            executable: "psql", ["-d", url, "-c", "INSERT INTO schema_version (version) VALUES (99)"])
        #expect(throws: StorageError.self) { _ = try PostgresSessionStorage(url: url, node: "a", features: types) }
    }

    @Test func anUnreachableDatabaseIsReportedWithoutItsPassword() {
        #expect {
            _ = try PostgresSessionStorage(
                url: "postgres://viewhost:s3cret@127.0.0.1:1/viewhost", node: "a", features: types)
        } throws: { error in
            guard case .unreachable(let reason) = error as? StorageError else { return false }
            return !reason.contains("s3cret") && reason.contains("***")
        }
    }

    @Test func historyKeepsCheckpointsAndRecordsWithinTheBoundAndReadsBackEveryVersion() async throws {
        let storage = try PostgresSessionStorage(url: server.url, node: "a", features: types, historyInputs: 100)
        defer { storage.close() }
        var (id, core) = try await newSession(storage)
        var seen: [Int: Tally.Snapshot] = [:]
        for number in 1...300 {
            #expect(try await add(number, number: number, to: &core, id: id, storage: storage, snapshot: number % 64 == 0))
            if let (version, viewModel) = core.snapshot(of: "tally") { seen[version] = viewModel as? Tally.Snapshot }
        }
        let checkpoints = try storage.checkpoints(of: id)
        let oldest = try #require(checkpoints.first)
        #expect(checkpoints.map(\.number) == Array(stride(from: oldest.number, through: 256, by: 64)))
        #expect((100..<228).contains(300 - oldest.number), "\(oldest.number)")
        let (versions, records) = try HistoryWalk.versions(of: "tally", session: id, in: storage)
        #expect(records == Array((oldest.number + 1)...300))
        #expect(versions.count == 300 - oldest.number + 1)
        for (version, viewModel) in versions { #expect(viewModel as? Tally.Snapshot == seen[version], "version \(version)") }
        guard case .found(let loaded) = try storage.load(id) else {
            Issue.record("session not found")
            return
        }
        #expect(loaded.core == core)
        let removed = await withCheckedContinuation { continuation in
            storage.remove(id, expiredAt: nil) { continuation.resume(returning: $0) }
        }
        #expect(removed)
        #expect(try storage.checkpoints(of: id).isEmpty)
        #expect(try storage.records(of: id, after: 0, limit: 10).isEmpty)
    }

    /// Without history no checkpoint is kept and the history reads give nothing, as the memory store holds none
    /// (the journal's records after the snapshot, which a load replays, were read as history); the checkpoints a
    /// run with history kept are not read, and the session's next snapshot deletes them (they were kept for good).
    @Test func withoutHistoryNoCheckpointIsKeptAndNoneIsRead() async throws {
        let storage = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        var (id, core) = try await newSession(storage)
        for number in 1...70 {
            #expect(try await add(number, number: number, to: &core, id: id, storage: storage, snapshot: number == 64))
        }
        #expect(try storage.checkpoints(of: id).isEmpty)
        #expect(try storage.records(of: id, after: 0, limit: 100).isEmpty)
        let replayed = try await server.psql("SELECT count(*) FROM journal WHERE session_id = '\(id)'")
        #expect(replayed.trimmingCharacters(in: .whitespacesAndNewlines) == "6", "what a load replays")
        storage.close()

        let kept = try PostgresSessionStorage(url: server.url, node: "a", features: types, historyInputs: 100)
        var (other, value) = try await newSession(kept)
        for number in 1...70 {
            #expect(try await add(number, number: number, to: &value, id: other, storage: kept, snapshot: number == 64))
        }
        #expect(try kept.checkpoints(of: other).map(\.number) == [0, 64])
        kept.close()
        let without = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        defer { without.close() }
        guard case .found = try without.load(other) else { throw CocoaError(.fileNoSuchFile) }
        #expect(try without.checkpoints(of: other).isEmpty)
        #expect(try without.records(of: other, after: 0, limit: 100).isEmpty)
        for number in 71...128 {
            #expect(try await add(number, number: number, to: &value, id: other, storage: without, snapshot: number == 128))
        }
        let checkpoints = try await server.psql("SELECT count(*) FROM checkpoints WHERE session_id = '\(other)'")
        #expect(checkpoints.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// A password is masked where it stands as one, never as letters elsewhere in the message (a one-letter
    /// password turned "port 1 failed" into "***ort 1 failed"), and a `?password=` parameter is masked too.
    @Test(arguments: [
        "postgres://viewhost:p@127.0.0.1:1/viewhost", "postgres://viewhost@127.0.0.1:1/viewhost?password=s3cret",
        "postgres://viewhost@127.0.0.1:1/viewhost?sslmode=disable&password=s3cret",
    ])
    func theReasonHidesThePasswordAndNothingElse(url: String) {
        #expect {
            _ = try PostgresSessionStorage(url: url, node: "a", features: types)
        } throws: { error in
            guard case .unreachable(let reason) = error as? StorageError else { return false }
            #expect(!reason.contains("s3cret") && !reason.contains(":p@"), "\(reason)")
            #expect(reason.contains("port 1 failed"), "\(reason)")
            #expect(reason.contains("***"), "\(reason)")
            return true
        }
    }
}

extension SessionStorage {
    /// ``SessionStorage/create(_:completion:)`` where a throw cannot be handled (in a continuation's closure): a
    /// value that cannot be encoded counts as not durable.
    func creating(_ session: StoredSession, completion: @escaping @Sendable (Bool) -> Void) {
        do {
            try create(session, completion: completion)
        } catch {
            completion(false)
        }
    }

    /// ``SessionJournal/append(_:completion:)`` where a throw cannot be handled: a snapshot that cannot be encoded
    /// counts as not durable.
    func appending(_ entry: JournalEntry, completion: @escaping @Sendable (Bool) -> Void) {
        do {
            try append(entry, completion: completion)
        } catch {
            completion(false)
        }
    }
}
