import Foundation
import SQLiteStorage
import Testing
import TestSupport
import ViewHostAPI
import ViewModelCore

/// A store whose sessions hold feature data a build cannot read is refused when it opens, naming the feature and
/// the version, instead of failing its sessions one by one when clients ask for them; what a build can read opens,
/// even where the kept bound says otherwise (the sessions that held an old version are gone).
@Suite(.timeLimit(.minutes(TestDeadline.minutes(1))))
struct FeatureSchemaCheckTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-schemas-\(UUID().uuidString)").path

    /// Tally at schema 2: the same shape, and it migrates from 1.
    enum TallyTwo: Feature {
        typealias State = Tally.State
        typealias Event = Tally.Event
        typealias Snapshot = Tally.Snapshot
        static let key = FeatureKey<TallyTwo>("tally")
        static var schemaVersion: Int { 2 }
        static var oldestMigratableVersion: Int { 1 }
        static func check(_ event: Event, in state: State) throws(EventRefusal) {}
        static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<TallyTwo>) {
            guard case .add(let amount) = event else { return }
            state.count += amount
            context.markChanged()
        }
        static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(count: state.count) }
        static func describe(_ event: Event) -> EventDescription { EventDescription(name: "\(event)") }
        static func migrate(state decoder: any Decoder, from version: Int) throws -> State { try State(from: decoder) }
        static func migrate(event decoder: any Decoder, from version: Int) throws -> Event { try Event(from: decoder) }
    }

    /// Tally at schema 3, which migrates from 2 only.
    enum TallyThree: Feature {
        typealias State = Tally.State
        typealias Event = Tally.Event
        typealias Snapshot = Tally.Snapshot
        static let key = FeatureKey<TallyThree>("tally")
        static var schemaVersion: Int { 3 }
        static var oldestMigratableVersion: Int { 2 }
        static func check(_ event: Event, in state: State) throws(EventRefusal) {}
        static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<TallyThree>) {
            guard case .add(let amount) = event else { return }
            state.count += amount
            context.markChanged()
        }
        static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(count: state.count) }
        static func describe(_ event: Event) -> EventDescription { EventDescription(name: "\(event)") }
        static func migrate(state decoder: any Decoder, from version: Int) throws -> State { try State(from: decoder) }
        static func migrate(event decoder: any Decoder, from version: Int) throws -> Event { try Event(from: decoder) }
    }

    func open(_ types: [any Feature.Type]) throws(StorageError) -> SQLiteSessionStorage {
        try SQLiteSessionStorage(directory: directory, sync: .full, features: FeatureTypes(types))
    }

    /// Stores a new session of `key`'s feature with one journal record; returns its id.
    func storeSession<F: Feature>(_ storage: SQLiteSessionStorage, _ key: FeatureKey<F>) async throws -> SessionID
    where F.State == Tally.State, F.Event == Tally.Event {
        let session = Session(
            id: .random(), token: SessionToken(secret: .random()),
            environment: SessionEnvironment(scheduler: ManualScheduler(), journal: storage), random: .seeded(1),
            features: [InitialFeature(key, state: Tally.State())])
        let stored = CommitTicket()
        try storage.create(
            StoredSession(
                id: session.id, token: session.token, createdAt: session.createdAt, lastAccess: session.lastAccess,
                core: session.core, journalNumber: 0)
        ) { stored.resolve($0 ? .success(()) : .failure(.unavailable)) }
        try await stored.value()
        let (_, durable) = try session.submit(Submission(events: [Tally.Event.add(2)]), to: key)
        try await durable?.value()
        return session.id
    }

    @Test func aVersionTheFeatureNoLongerMigratesFromIsRefusedAtOpenNamingIt() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try open([Tally.self])
        _ = try await storeSession(first, Tally.key)
        first.close()
        // Schema 2 migrates from 1: it opens, and its sessions load.
        try open([TallyTwo.self]).close()
        #expect(throws: StorageError.unusable(
            path: directory + "/viewhost.sqlite",
            reason: "feature 'tally' cannot migrate its stored data from schema version 1 to 3 (stored: tally 1)"))
        {
            try open([TallyThree.self])
        }
    }

    @Test func aFeatureTheAppNoLongerRegistersIsRefusedAtOpen() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try open([Tally.self])
        _ = try await storeSession(first, Tally.key)
        first.close()
        #expect(throws: StorageError.unusable(
            path: directory + "/viewhost.sqlite",
            reason: "the store holds sessions with feature 'tally', which this app does not register (stored: tally 1)"))
        {
            try open([])
        }
    }

    @Test func theKeptBoundIsCheckedAgainstTheSessionsBeforeAStoreIsRefused() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try open([Tally.self])
        let id = try await storeSession(first, Tally.key)
        let removed = CommitTicket()
        first.remove(id, expiredAt: nil) { removed.resolve($0 ? .success(()) : .failure(.unavailable)) }
        try await removed.value()
        first.close()
        // The store kept "tally 1", but no session holds it any more: a build that reads only 2 and 3 opens it.
        let reopened = try open([TallyThree.self])
        guard case .none = try reopened.load(id) else { Issue.record("the removed session came back"); return }
        reopened.close()
    }

    @Test func aNewerVersionThanTheBuildsIsRefused() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try open([TallyThree.self])
        _ = try await storeSession(first, TallyThree.key)
        first.close()
        #expect(throws: StorageError.unusable(
            path: directory + "/viewhost.sqlite",
            reason: "feature 'tally' was stored by schema version 3, newer than this build's 1 (stored: tally 3)"))
        {
            try open([Tally.self])
        }
    }

    /// A feature's journal records carry its schema version: before, a client's events were kept as a bare array
    /// (read as version 1), so a session of a feature at version 3 that no longer reads 1 failed to load.
    @Test func journalRecordsOfAFeaturePastVersionOneReadBackAfterReopening() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try open([TallyThree.self])
        let id = try await storeSession(first, TallyThree.key)
        first.close()
        let reopened = try open([TallyThree.self])
        guard case .found(let stored) = try reopened.load(id) else {
            Issue.record("the session is gone")
            return
        }
        #expect(stored.journalNumber == 1)
        #expect(stored.core.state(of: TallyThree.key)?.count == 2)
        reopened.close()
    }

    @Test func storedSchemasReadValuesAndJournalRecords() throws {
        var stored = StoredSchemas()
        try stored.add(storedValue: Data(#"{"features":[{"name":"chat","slot":{}},{"name":"todo","slot":{"schema":4}}]}"#.utf8))
        stored.add(input: .events(feature: "todo", at: Date(), source: .view, events: Data(#"{"schema":2,"events":[]}"#.utf8)))
        stored.add(input: .submission(feature: "chat", at: Date(), events: Data("[]".utf8), eventIDs: [], key: nil, fingerprint: nil))
        stored.add(input: .timer(id: 3, at: Date()))
        #expect(stored == StoredSchemas(["chat": 1...1, "todo": 2...4]))
        #expect(throws: StoredSchemasError.notAStoredValue) { try stored.add(storedValue: Data("[1]".utf8)) }
    }
}
