import Foundation
import SQLiteStorage
import TestSupport
import Testing
import ViewHostAPI
import ViewModelCore

/// A feature whose stored shape changed while its schema version did not is refused when the store opens, naming
/// the feature and the member (before, the store opened and every old session failed when a client asked for it,
/// with "The data couldn't be read because it is missing."); raising the version with a migration opens it. What
/// the start cannot see fails the session's load naming the feature, the member and the stored version.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(1))))
struct FeatureShapeCheckTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "viewhost-shapes-\(UUID().uuidString)"
    ).path

    /// Tally's state with a note added, the version forgotten.
    enum NotedTally: TallyVariant {
        struct State: Codable, Equatable, Sendable {
            var count = 0
            var note = ""
        }

        typealias Event = Tally.Event
        static let key = FeatureKey<NotedTally>("tally")
    }

    /// The same, at schema version 2, migrating version 1's state.
    enum NotedTallyTwo: TallyVariant {
        typealias State = NotedTally.State
        typealias Event = Tally.Event
        static let key = FeatureKey<NotedTallyTwo>("tally")
        static var schemaVersion: Int { 2 }
        static var oldestMigratableVersion: Int { 1 }
        static func migrate(state decoder: any Decoder, from version: Int) throws -> State {
            State(count: try Tally.State(from: decoder).count)
        }
        static func migrate(event decoder: any Decoder, from version: Int) throws -> Event { try Event(from: decoder) }
        static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<Self>) {
            guard case .add(let amount) = event else { return }
            state.count += amount
            context.markChanged()
        }
    }

    /// Tally with an optional note: a change stored values still decode through.
    enum OptionallyNotedTally: TallyVariant {
        struct State: Codable, Equatable, Sendable {
            var count = 0
            var note: String?
        }

        typealias Event = Tally.Event
        static let key = FeatureKey<OptionallyNotedTally>("tally")
    }

    /// Tally whose `add` names its amount: a change of an event's payload, which the start cannot see (the probe
    /// cannot make an enum with associated values).
    enum NamedAmountTally: TallyVariant {
        typealias State = Tally.State
        enum Event: Codable, Equatable, Sendable {
            case add(amount: Int)
        }

        static let key = FeatureKey<NamedAmountTally>("tally")
    }

    var path: String { directory + "/viewhost.sqlite" }

    func open(_ types: [any Feature.Type]) throws(StorageError) -> SQLiteSessionStorage {
        try SQLiteSessionStorage(directory: directory, sync: .full, features: FeatureTypes(types))
    }

    /// Stores a session of Tally with one journal record (`add(2)`), with the store closed after.
    func storeTallySession() async throws -> SessionID {
        let storage = try open([Tally.self])
        defer { storage.close() }
        let session = Session(
            id: .random(), token: SessionToken(secret: .random()),
            environment: SessionEnvironment(scheduler: ManualScheduler(), journal: storage), random: .seeded(1),
            features: [InitialFeature(Tally.key, state: Tally.State())])
        let stored = CommitTicket()
        try storage.create(
            StoredSession(
                id: session.id, token: session.token, createdAt: session.createdAt, lastAccess: session.lastAccess,
                core: session.core, journalNumber: 0)
        ) { stored.resolve($0 ? .success(()) : .failure(.unavailable)) }
        try await stored.value()
        let (_, durable) = try session.submit(Submission(events: [Tally.Event.add(2)]), to: Tally.key)
        try await durable?.value()
        return session.id
    }

    @Test func aShapeChangedWithoutANewVersionIsRefusedAtOpenAndANewVersionWithAMigrationOpens() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = try await storeTallySession()
        #expect(
            throws: StorageError.unusable(
                path: path,
                reason:
                    "feature 'tally' changed the shape of its stored data but not its schemaVersion (1): state.note is "
                    + "new and required, so the sessions stored by schema version 1 would not be read; raise schemaVersion "
                    + "to 2 and migrate version 1 in migrate(state:from:) and migrate(event:from:)")
        ) {
            try open([NotedTally.self])
        }
        // The way to accept the change: a new version, with its migration.
        let migrated = try open([NotedTallyTwo.self])
        guard case .found(let stored) = try migrated.load(id) else {
            Issue.record("the session is gone")
            return
        }
        #expect(stored.core.state(of: NotedTallyTwo.key) == NotedTally.State(count: 2, note: ""))
        migrated.close()
        try open([NotedTallyTwo.self]).close()
    }

    /// The store keeps the last build's shape: a compatible change opens and is recorded, so the next change is
    /// compared with it.
    @Test func aChangeStoredValuesStillDecodeThroughOpensAndIsComparedFromThen() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try await storeTallySession()
        try open([OptionallyNotedTally.self]).close()
        do {
            try open([NotedTally.self]).close()
            Issue.record("a note made required at the same version opened")
        } catch {
            #expect("\(error)".contains("state.note is now required"), "\(error)")
        }
    }

    /// A change the start cannot see (an event's payload) fails the session's load with the feature, the member
    /// and the stored version; so does a state of a store that kept no shape (written before shapes were kept).
    @Test func aSessionThatDoesNotDecodeIsSaidWithTheFeatureTheMemberAndTheVersion() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = try await storeTallySession()
        let renamed = try open([NamedAmountTally.self])
        #expect(
            Self.undecodable { () throws(StorageError) in try renamed.load(id) }
                == StoredFeatureError(
                    feature: "tally", field: "events[0].add.amount", storedVersion: 1, currentVersion: 1,
                    reason: "is missing"))
        renamed.close()
        try SQLiteTestQueries.execute("UPDATE feature_schemas SET shape = NULL", at: path)
        let noted = try open([NotedTally.self])
        defer { noted.close() }
        #expect(
            Self.undecodable { () throws(StorageError) in try noted.load(id) }
                == StoredFeatureError(
                    feature: "tally", field: "state.note", storedVersion: 1, currentVersion: 1, reason: "is missing"))
        do {
            _ = try noted.load(id)
        } catch {
            #expect(
                "\(error)"
                    == "session \(id): feature 'tally' does not decode state.note stored by schema version 1: it is "
                    + "missing (its stored shape changed without a new schemaVersion?)")
        }
    }

    /// `viewhost check` decodes every session with the app's features, as a load would, and says what the start
    /// would refuse (it said "sound" of a store whose every session failed to load).
    @Test func checkDecodesEverySessionWithTheAppsFeatures() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = try await storeTallySession()
        #expect(try SQLiteMaintenance.check(directory: directory, features: FeatureTypes([Tally.self])).isSound)
        let renamed = try SQLiteMaintenance.check(directory: directory, features: FeatureTypes([NamedAmountTally.self]))
        #expect(
            renamed.problems == [
                "1 of 1 sessions do not decode with this build's features (each answers 500): session \(id): feature "
                    + "'tally' does not decode events[0].add.amount stored by schema version 1: it is missing (its stored "
                    + "shape changed without a new schemaVersion?)"
            ])
        let noted = try SQLiteMaintenance.check(directory: directory, features: FeatureTypes([NotedTally.self]))
        #expect(noted.problems.count == 2)
        #expect(
            noted.problems.first?.hasPrefix(
                "feature 'tally' changed the shape of its stored data but not its schemaVersion (1): state.note is new and required"
            ) == true, "\(noted.problems)")
        #expect(noted.problems.first?.hasSuffix("; serve refuses this store") == true)
        #expect(noted.problems.last?.contains("session \(id): feature 'tally' does not decode state.note") == true)
        // Without features (a caller that has none), the sessions are not decoded.
        #expect(try SQLiteMaintenance.check(directory: directory).isSound)
    }

    /// What `load` said of a session that does not decode; nil when it loaded or failed otherwise.
    static func undecodable(_ load: () throws(StorageError) -> StoredLookup) -> StoredFeatureError? {
        do {
            _ = try load()
        } catch {
            guard case .undecodable(_, let said) = error else {
                Issue.record("\(error)")
                return nil
            }
            return said
        }
        Issue.record("the session loaded")
        return nil
    }
}

/// Tally under another state or event type, with its name.
protocol TallyVariant: Feature where Snapshot == Tally.Snapshot {}

extension TallyVariant {
    static func check(_ event: Event, in state: State) throws(EventRefusal) {}
    static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<Self>) {}
    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(count: 0) }
    static func describe(_ event: Event) -> EventDescription { EventDescription(name: "\(event)") }
}
