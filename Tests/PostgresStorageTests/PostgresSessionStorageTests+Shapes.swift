import Foundation
import PostgresStorage
import TestSupport
import Testing
import ViewHostAPI
import ViewModelCore

/// A node whose feature changed its stored shape without a new schema version is refused, naming the feature and
/// the member, as the SQLite store is; what the start cannot see (an event's payload) fails the session's load with
/// the feature, the member and the stored version, never as a database that cannot be used.
extension PostgresSessionStorageTests {
    /// Tally's state with a note added, the version forgotten.
    enum NotedTally: Feature {
        struct State: Codable, Equatable, Sendable {
            var total = 0
            var note = ""
        }

        typealias Event = Tally.Event
        typealias Snapshot = Tally.Snapshot
        static let key = FeatureKey<NotedTally>("tally")
        static func check(_ event: Event, in state: State) throws(EventRefusal) {}
        static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<NotedTally>) {}
        static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(total: state.total) }
        static func describe(_ event: Event) -> EventDescription { EventDescription(name: "add") }
    }

    /// Tally whose `add` names its amount.
    enum NamedTally: Feature {
        typealias State = Tally.State
        enum Event: Codable, Equatable, Sendable {
            case add(amount: Int)
        }

        typealias Snapshot = Tally.Snapshot
        static let key = FeatureKey<NamedTally>("tally")
        static func check(_ event: Event, in state: State) throws(EventRefusal) {}
        static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<NamedTally>) {}
        static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(total: state.total) }
        static func describe(_ event: Event) -> EventDescription { EventDescription(name: "add") }
    }

    @Test func aShapeChangedWithoutANewVersionRefusesTheNodeAndAnEventThatDoesNotDecodeIsNamed() async throws {
        try await server.createDatabase("shapes")
        let url = server.url(database: "shapes")
        let first = try PostgresSessionStorage(url: url, node: "a", features: types)
        var (id, core) = try await newSession(first)
        #expect(try await add(1, number: 1, to: &core, id: id, storage: first))
        first.close()
        do {
            _ = try PostgresSessionStorage(url: url, node: "b", features: FeatureTypes([NotedTally.self]))
            Issue.record("a node whose state gained a member at the same version opened the database")
        } catch {
            guard case .unusable(_, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(
                reason.hasPrefix(
                    "feature 'tally' changed the shape of its stored data but not its schemaVersion (1): state.note is new and required"
                ), "\(reason)")
        }
        let renamed = try PostgresSessionStorage(url: url, node: "b", features: FeatureTypes([NamedTally.self]))
        defer { renamed.close() }
        do {
            _ = try renamed.load(id)
            Issue.record("an event of another shape loaded")
        } catch {
            guard case .undecodable(let session, let said) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(session == id)
            #expect(said.feature == "tally" && said.field == "events[0].add.amount" && said.storedVersion == 1)
            #expect(said.reason == "is missing")
        }
    }
}
