import Foundation
import SQLiteStorage
import Testing
import TestSupport
import ViewHostLocking
@testable import ViewModelCore

/// The SQLite store on its own: what a session applied comes back after the storage is opened again, byte for
/// byte; snapshots bound the journal; removed and expired sessions leave what they should; and files that are not
/// a sound ViewHost store are refused with a reason.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct SQLiteSessionStorageTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-sqlite-\(UUID().uuidString)").path
    let scheduler = ManualScheduler()

    func open() throws(StorageError) -> SQLiteSessionStorage {
        try SQLiteSessionStorage(directory: directory, sync: .full, features: Tally.types)
    }

    /// A session on `storage`, stored, with its secret.
    func makeSession(_ storage: SQLiteSessionStorage) async throws -> (Session, SessionSecret) {
        try await Self.makeSession(storage, scheduler: scheduler)
    }

    /// A session on `storage` whose time is `scheduler`'s, stored, with its secret.
    static func makeSession(
        _ storage: SQLiteSessionStorage, scheduler: ManualScheduler
    ) async throws -> (Session, SessionSecret) {
        let secret = SessionSecret.random()
        let session = Session(
            id: .random(), token: SessionToken(secret: secret),
            environment: SessionEnvironment(scheduler: scheduler, journal: storage), random: .seeded(3),
            features: [InitialFeature(Tally.key, state: Tally.State())])
        let stored = CommitTicket()
        try storage.create(
            StoredSession(
                id: session.id, token: session.token, createdAt: session.createdAt, lastAccess: session.lastAccess,
                core: session.core, journalNumber: 0)
        ) { stored.resolve($0 ? .success(()) : .failure(.unavailable)) }
        try await stored.value()
        return (session, secret)
    }

    @Test func whatWasAppliedComesBackAfterReopening() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = try open()
        let (session, secret) = try await makeSession(storage)
        for amount in 1...10 {
            let (_, durable) = try session.submit(
                Submission(events: [Tally.Event.add(amount)], idempotency: (key: "k\(amount)", fingerprint: "f")),
                to: Tally.key)
            try await durable?.value()
        }
        try session.send([.addLater(100, .seconds(30))], to: Tally.key)
        try await session.committed()
        storage.close()
        let reopened = try open()
        guard case .found(let stored) = try reopened.load(session.id) else {
            Issue.record("the session is gone")
            return
        }
        #expect(stored.core == session.core)
        #expect(stored.journalNumber == 11)
        #expect(stored.token.matches(secret.rawValue))
        #expect(stored.core.pendingTimers.count == 1)
        #expect(stored.core.idempotency.lookup(key: "k3", fingerprint: "f", now: scheduler.now) == .replay(.init(accepted: 1, version: 4)))
        #expect(try reopened.sessionsDue(before: .distantFuture, limit: 10) == [session.id])
        #expect(try reopened.sessionsDue(before: stored.core.nextTimerDue ?? .distantPast, limit: 10).isEmpty)
    }

    @Test func snapshotsKeepTheJournalShort() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = try open()
        let (session, _) = try await makeSession(storage)
        for _ in 0..<(Session.snapshotInterval * 2 + 5) { try session.send([.add(1)], to: Tally.key) }
        try await session.committed()
        guard case .found(let stored) = try storage.load(session.id) else {
            Issue.record("the session is gone")
            return
        }
        #expect(stored.core == session.core)
        #expect(try SQLiteTestQueries.journalRows(in: directory, of: session.id) == 5)
    }

    @Test func anEntryOutOfOrderIsRefusedAndPoisonsItsSessionUntilItIsLoaded() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = try open()
        let (session, _) = try await makeSession(storage)
        let input = SessionInput.timer(id: 1, at: .now)
        let results = Locked<[Bool]>([])
        let done = CommitTicket()
        for number in [2, 1] {  // 2 before 1: a gap
            try storage.append(
                JournalEntry(session: session.id, number: number, input: input, snapshot: nil, nextDueAt: nil, lastAccess: .now)
            ) { durable in
                let count = results.withLock { results -> Int in
                    results.append(durable)
                    return results.count
                }
                if count == 2 { done.resolve(.success(())) }
            }
        }
        try await done.value()
        #expect(results.withLock { $0 } == [false, false])  // 1 failed too: the session is poisoned
        guard case .found(let loaded) = try storage.load(session.id) else {  // a copy loaded again writes
            Issue.record("the session is gone")
            return
        }
        #expect(loaded.copy > session.copy)
        let after = CommitTicket()
        try storage.append(
            JournalEntry(
                session: session.id, number: 1, input: input, snapshot: nil, nextDueAt: nil, lastAccess: .now,
                copy: loaded.copy)
        ) { after.resolve($0 ? .success(()) : .failure(.unavailable)) }
        try await after.value()
    }

    /// Records queued together share a transaction, and one whose session's record before it was just written
    /// there is inserted without looking that one up: two sessions' runs interleaved all land; a record after its
    /// session's removal in the same batch, and a number written twice, are still refused.
    @Test func recordsQueuedTogetherAreCheckedAsOneAtATimeWould() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = try open()
        let (first, _) = try await makeSession(storage)
        let (second, _) = try await makeSession(storage)
        let (removed, _) = try await makeSession(storage)
        let (twice, _) = try await makeSession(storage)
        let before = storage.commitCounts
        let results = Locked<[String: Bool]>([:])
        let writes = 2 * 40 + 3 + 1 + 3
        let done = CommitTicket()
        let note: @Sendable (String) -> @Sendable (Bool) -> Void = { name in
            { durable in
                let count = results.withLock { results -> Int in
                    results[name] = durable
                    return results.count
                }
                if count == writes { done.resolve(.success(())) }
            }
        }
        func append(_ number: Int, of id: SessionID, as name: String) throws {
            try storage.append(
                JournalEntry(
                    session: id, number: number, input: .timer(id: number, at: .now), snapshot: nil, nextDueAt: nil,
                    lastAccess: .now),
                completion: note(name))
        }
        for number in 1...40 {
            try append(number, of: first.id, as: "first \(number)")
            try append(number, of: second.id, as: "second \(number)")
        }
        try append(1, of: removed.id, as: "removed 1")
        try append(2, of: removed.id, as: "removed 2")
        storage.remove(removed.id, expiredAt: nil, completion: note("removal"))
        try append(3, of: removed.id, as: "removed 3")
        try append(1, of: twice.id, as: "twice 1")
        try append(2, of: twice.id, as: "twice 2")
        try append(2, of: twice.id, as: "twice 2 again")
        try await done.value()
        let outcome = results.withLock { $0 }
        #expect((1...40).allSatisfy { outcome["first \($0)"] == true && outcome["second \($0)"] == true })
        #expect(outcome["removed 1"] == true && outcome["removed 2"] == true && outcome["removal"] == true)
        #expect(outcome["removed 3"] == false, "a record after its session's removal follows nothing")
        #expect(outcome["twice 1"] == true && outcome["twice 2"] == true)
        #expect(outcome["twice 2 again"] == false, "a number written already is refused")
        let after = storage.commitCounts
        #expect(after.writes - before.writes > after.commits - before.commits, "the writes shared transactions")
        #expect(try SQLiteTestQueries.journalRows(in: directory, of: first.id) == 40)
        #expect(try SQLiteTestQueries.journalRows(in: directory, of: second.id) == 40)
        #expect(try SQLiteTestQueries.journalRows(in: directory, of: removed.id) == 0)
        #expect(try SQLiteTestQueries.journalRows(in: directory, of: twice.id) == 2)
        guard case .found(let loaded) = try storage.load(first.id) else {
            Issue.record("the session is gone")
            return
        }
        #expect(loaded.journalNumber == 40)
        storage.close()
    }

    /// On a disk that is really full (a 1 MB tmpfs): the failed commit makes the store `failing`, naming the file
    /// and the reason; a later append of the same copy is refused without a write, and that refusal does not make
    /// the store look healthy again (it did: `/readyz` said 200 on a full disk). Once space comes back the probe's
    /// write makes it healthy, and a copy loaded again writes.
    @Test(.enabled(if: TmpfsMount.isAvailable, "mounting a tmpfs needs root"))
    func refusedWritesOnAFullDiskDoNotMakeTheStoreHealthy() async throws {
        try await TmpfsMount.with(kilobytes: 1024) { try await fillAndRecover($0) }
    }

    private func fillAndRecover(_ disk: TmpfsMount) async throws {
        let storage = try SQLiteSessionStorage(directory: disk.path + "/data", sync: .full, features: Tally.types)
        let (session, _) = try await makeSession(storage)
        try disk.fill(leaving: 16 * 1024)
        var number = 0
        var failed = false
        while !failed, number < 1000 {
            number += 1
            failed = !(try await append(number, copy: session.copy, of: session.id, to: storage))
        }
        #expect(failed, "a 1 MB disk never filled")
        guard case .failing(let reason) = storage.health else {
            Issue.record("\(storage.health)")
            return
        }
        #expect(reason.contains(disk.path + "/data/viewhost.sqlite") && reason.contains("disk is full"), "\(reason)")
        #expect(try await append(number + 1, copy: session.copy, of: session.id, to: storage) == false)
        #expect(!storage.health.isHealthy, "a batch of refused appends wrote nothing")

        try disk.free()
        #expect(await eventually(timeout: .seconds(30), interval: .milliseconds(100)) { storage.health.isHealthy })
        guard case .found(let loaded) = try storage.load(session.id) else {
            Issue.record("the session is gone")
            return
        }
        #expect(loaded.journalNumber == number - 1)
        #expect(try await append(number, copy: loaded.copy, of: session.id, to: storage))
        storage.close()
    }

    /// Appends a timer input as record `number` of `id`'s copy `copy`; whether it is durable.
    private func append(_ number: Int, copy: Int, of id: SessionID, to storage: SQLiteSessionStorage) async throws -> Bool {
        let ticket = CommitTicket()
        try storage.append(
            JournalEntry(
                session: id, number: number, input: .timer(id: number, at: .now), snapshot: nil, nextDueAt: nil,
                lastAccess: .now, copy: copy)
        ) { ticket.resolve($0 ? .success(()) : .failure(.unavailable)) }
        return (try? await ticket.value()) != nil
    }

    @Test func removedSessionsLeaveNothingAndExpiredOnesATombstone() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = try open()
        let (deleted, _) = try await makeSession(storage)
        let (expired, secret) = try await makeSession(storage)
        for (session, expiredAt) in [(deleted, nil), (expired, Date.now)] as [(Session, Date?)] {
            let removed = CommitTicket()
            storage.remove(session.id, expiredAt: expiredAt) { removed.resolve($0 ? .success(()) : .failure(.unavailable)) }
            try await removed.value()
        }
        guard case .none = try storage.load(deleted.id) else {
            Issue.record("a deleted session is not found")
            return
        }
        guard case .expired(let token) = try storage.load(expired.id) else {
            Issue.record("an expired session is remembered as expired")
            return
        }
        #expect(token.matches(secret.rawValue))
        #expect(try SQLiteTestQueries.journalRows(in: directory, of: expired.id) == 0)
    }

    @Test func idleStoredSessionsExpireUnlessTheyAreInMemory() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = try open()
        let (idle, _) = try await makeSession(storage)
        let (live, _) = try await makeSession(storage)
        let expired = storage.expire(
            idleBefore: .now.addingTimeInterval(60), forgetBefore: .distantPast, except: { $0 == live.id })
        #expect(expired == 1)
        guard case .expired = try storage.load(idle.id) else {
            Issue.record("idle expired")
            return
        }
        guard case .found = try storage.load(live.id) else {
            Issue.record("live stays")
            return
        }
    }

    @Test func anUnwritableDirectoryIsRefusedWithItsReason() throws {
        #expect(throws: StorageError.cannotCreate(path: "/dev/null/data", reason: "it is missing and cannot be made: Not a directory")) {
            try SQLiteSessionStorage(directory: "/dev/null/data", sync: .full, features: Tally.types)
        }
    }

    @Test(arguments: ["corrupt", "foreign", "newer"])
    func aFileThatIsNotASoundStoreIsRefusedNamingIt(kind: String) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + SQLiteSessionStorage.fileName
        switch kind {
        case "corrupt": try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        case "foreign": try SQLiteTestQueries.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1);", at: path)
        default:
            // Closed before the file is written: a store let go without `close()` closes its pool when its page
            // check lets go of it, and the last connection to close holds the file's exclusive lock while it
            // removes the -wal, so a write racing it failed with SQLITE_BUSY (CI, stop 31).
            try open().close()
            try SQLiteTestQueries.execute("INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')", at: path)
        }
        do {
            _ = try open()
            Issue.record("a \(kind) file was opened")
        } catch {
            guard case .unusable(let named, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(named == path)
            let expected = ["corrupt": "file is not a database", "foreign": "not a ViewHost store", "newer": "newer ViewHost"]
            #expect(reason.contains(expected[kind]!), "\(reason)")
        }
    }

    /// `Fixtures/store-vN.sqlite` is a store as schema version N wrote it, holding one Tally session that applied
    /// `add(1)`, `add(2)` and `add(3)` (made with `SQLiteMaintenance.backup` of such a store). Every schema change
    /// adds the file of the version it replaces.
    @Test func everyEarlierSchemaVersionOpensAndKeepsItsSessions() throws {
        let folder = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures")
        let fixtures = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sqlite" }
        #expect(!fixtures.isEmpty)
        for fixture in fixtures {
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: fixture.path, toPath: directory + "/" + SQLiteSessionStorage.fileName)
            let storage = try open()
            #expect(try storage.sessionCount() == 1, "\(fixture.lastPathComponent)")
            let id = try #require(try SQLiteTestQueries.firstSessionID(in: directory))
            guard case .found(let stored) = try storage.load(id) else {
                Issue.record("\(fixture.lastPathComponent): its session does not load")
                continue
            }
            #expect(stored.core.state(of: Tally.key)?.count == 6)
        }
    }

    @Test func backupCopiesAConsistentStoreAndCheckFindsItSound() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = try open()
        let (session, _) = try await makeSession(storage)
        try session.send([.add(1)], to: Tally.key)
        try await session.committed()
        let copy = directory + "-copy.sqlite"
        defer { try? FileManager.default.removeItem(atPath: copy) }
        #expect(try SQLiteMaintenance.backup(directory: directory, to: copy) == 1)
        #expect(try SQLiteMaintenance.check(directory: directory) == SQLiteMaintenance.Report(sessions: 1, problems: []))
        #expect(throws: StorageError.self) { try SQLiteMaintenance.backup(directory: directory, to: copy) }
        let restored = directory + "-restored"
        defer { try? FileManager.default.removeItem(atPath: restored) }
        try FileManager.default.createDirectory(atPath: restored, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: copy, toPath: restored + "/" + SQLiteSessionStorage.fileName)
        let reopened = try SQLiteSessionStorage(directory: restored, sync: .full, features: Tally.types)
        // Closed before the directory is removed (the defers run last first): a store let go of later wrote its
        // files into the removed directory again, and left it behind.
        defer { reopened.close() }
        guard case .found(let stored) = try reopened.load(session.id) else {
            Issue.record("the backup lacks the session")
            return
        }
        #expect(stored.core == session.core)
    }
}

/// The participants in SQLite (schema v9): the scenario every directory passes, also after the store is opened
/// again, and a session's participants going with it.
extension SQLiteSessionStorageTests {
    @Test func participantsAndJoinInvitationsAreKeptAndGoWithTheirSession() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var storage = try open()
        #expect(try ParticipantDirectoryScenario.run(storage, storage, start: start) == [])
        let (session, _) = try await makeSession(storage)
        let invitation = ParticipantDirectoryScenario.invitation("kept", of: session.id, uses: 2, at: start)
        #expect(try storage.addJoinInvitation(invitation, openLimit: 5, now: start))
        let joining = Joining(digest: invitation.digest, id: "pa", name: "A", tokenDigest: [1], maxParticipants: 5)
        guard case .joined(let participant) = try storage.join(joining, now: start) else {
            Issue.record("not joined")
            return
        }
        storage.close()
        storage = try open()
        #expect(try storage.participants(of: session.id) == [participant], "kept across a restart")
        #expect(try storage.joinInvitations(of: session.id, now: start).map(\.uses) == [1])
        let removed = CommitTicket()
        storage.remove(session.id, expiredAt: nil) { removed.resolve($0 ? .success(()) : .failure(.unavailable)) }
        try await removed.value()
        #expect(try storage.participants(of: session.id).isEmpty)
        #expect(try storage.join(joining, now: start) == .unknown, "its invitations went with it")
        storage.close()
    }
}

/// `check`, `backup` and `repair` cover the participants: a backup keeps them; a participant or join invitation of a
/// session that is gone (a store edited or damaged: a session's removal takes them with it) is found by check and
/// removed by repair, which leaves a live session's participants as they were.
extension SQLiteSessionStorageTests {
    @Test func backupKeepsTheParticipantsAndCheckAndRepairFindAndRemoveStrayOnes() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let storage = try open()
        let (session, _) = try await makeSession(storage)
        let invitation = ParticipantDirectoryScenario.invitation("kept", of: session.id, uses: 2, at: start)
        #expect(try storage.addJoinInvitation(invitation, openLimit: 5, now: start))
        let joining = Joining(digest: invitation.digest, id: "pa", name: "A", tokenDigest: [1], maxParticipants: 5)
        guard case .joined(let participant) = try storage.join(joining, now: start) else {
            Issue.record("not joined")
            return
        }
        let copy = directory + "-participants.sqlite"
        defer { try? FileManager.default.removeItem(atPath: copy) }
        #expect(try SQLiteMaintenance.backup(directory: directory, to: copy) == 1)
        storage.close()
        let restored = directory + "-participants"
        defer { try? FileManager.default.removeItem(atPath: restored) }
        try FileManager.default.createDirectory(atPath: restored, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: copy, toPath: restored + "/" + SQLiteSessionStorage.fileName)
        let reopened = try SQLiteSessionStorage(directory: restored, sync: .full, features: Tally.types)
        #expect(try reopened.participants(of: session.id) == [participant], "the backup keeps the participants")
        #expect(try reopened.joinInvitations(of: session.id, now: start).map(\.id) == ["jkept"])
        reopened.close()

        #expect(try SQLiteMaintenance.check(directory: directory).isSound)
        let file = directory + "/" + SQLiteSessionStorage.fileName
        try SQLiteTestQueries.execute(
            """
            INSERT INTO participants (session_id, id, name, role, features, token_digest, joined_at)
                VALUES ('gone', 'pgone', 'G', 'member', 'tally', x'01', 0);
            INSERT INTO join_invitations (id, session_id, features, role, digest, created_at, expires_at, uses)
                VALUES ('jgone', 'gone', 'tally', 'member', x'0203', 0, 4000000000, 1);
            """, at: file)
        let report = try SQLiteMaintenance.check(directory: directory)
        #expect(report.problems == ["1 participant and 1 join invitation of sessions that are gone (repair removes them)"])
        #expect(try SQLiteMaintenance.repair(directory: directory) == ["removed 1 participant and 1 join invitation of sessions that are gone"])
        #expect(try SQLiteMaintenance.check(directory: directory).isSound)
        let again = try open()
        defer { again.close() }
        #expect(try again.participants(of: session.id) == [participant], "a live session's participant stays")
        #expect(try again.participants(of: SessionID("gone")).isEmpty)
    }
}
