import Foundation
import Testing
import ViewHostAPI
import ViewHostJSON
import ViewModelCore

/// A feature's stored shape changes with its schema version: a session stored by an older version is migrated as it
/// is read (its state, its pending timers' events and its journal's events), and one the build cannot read is
/// refused naming the feature and the version; nothing is dropped silently.
struct SchemaMigrationTests {
    let start = Date(timeIntervalSince1970: 1_795_442_400)

    /// Version 1 of a tally: a count, events that add one.
    enum TallyV1: Feature {
        struct State: Codable, Equatable, Sendable { var count = 0 }
        enum Event: Codable, Equatable, Sendable {
            case add
            case addLater
        }
        struct Snapshot: FeatureSnapshot {
            static let feature = "tally"
            let count: Int
        }

        static func check(_ event: Event, in state: State) throws(EventRefusal) {}
        static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<TallyV1>) {
            switch event {
            case .add: state.count += 1
            case .addLater: context.schedule(.add, after: .seconds(5))
            }
            context.markChanged()
        }
        static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(count: state.count) }
        static func describe(_ event: Event) -> EventDescription { EventDescription(name: "\(event)") }
    }

    /// Version 2: the count is called `total`, and an event adds any amount. It reads version 1.
    enum TallyV2: Feature {
        struct State: Codable, Equatable, Sendable { var total = 0 }
        enum Event: Codable, Equatable, Sendable {
            case add(Int)
            case addLater(Int)
        }
        typealias Snapshot = TallyV1.Snapshot

        static let schemaVersion = 2
        static let oldestMigratableVersion = 1

        static func check(_ event: Event, in state: State) throws(EventRefusal) {}
        static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<TallyV2>) {
            switch event {
            case .add(let amount): state.total += amount
            case .addLater(let amount): context.schedule(.add(amount), after: .seconds(5))
            }
            context.markChanged()
        }
        static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(count: state.total) }
        static func describe(_ event: Event) -> EventDescription { EventDescription(name: "\(event)") }

        static func migrate(state decoder: any Decoder, from version: Int) throws -> State {
            State(total: try TallyV1.State(from: decoder).count)
        }

        static func migrate(event decoder: any Decoder, from version: Int) throws -> Event {
            switch try TallyV1.Event(from: decoder) {
            case .add: .add(1)
            case .addLater: .addLater(1)
            }
        }
    }

    /// Version 3 reads only version 2 and up.
    enum TallyV3: Feature {
        typealias State = TallyV2.State
        typealias Event = TallyV2.Event
        typealias Snapshot = TallyV1.Snapshot

        static let schemaVersion = 3
        static let oldestMigratableVersion = 2

        static func check(_ event: Event, in state: State) throws(EventRefusal) {}
        static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<TallyV3>) {}
        static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(count: state.total) }
        static func describe(_ event: Event) -> EventDescription { EventDescription(name: "\(event)") }

        static func migrate(state decoder: any Decoder, from version: Int) throws -> State { try State(from: decoder) }
        static func migrate(event decoder: any Decoder, from version: Int) throws -> Event { try Event(from: decoder) }
    }

    static func decode(_ data: Data, with types: [any Feature.Type]) throws -> SessionCore {
        let decoder = JSONDecoder()
        decoder.userInfo[.featureTypes] = FeatureTypes(types)
        return try decoder.decode(SessionCore.self, from: data)
    }

    func storedByVersionOne() throws -> Data {
        var core = SessionCore(
            settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(TallyV1.key, state: .init())])
        _ = try core.apply([.add, .add, .addLater], to: TallyV1.key, source: .client, at: start)
        return try JSONEncoder().encode(core)
    }

    @Test func anOlderStateAndItsPendingTimersAreMigratedAsTheyAreRead() throws {
        let core = try Self.decode(try storedByVersionOne(), with: [TallyV2.self])
        #expect(core.state(of: TallyV2.key) == TallyV2.State(total: 2))
        #expect(core.timers(of: TallyV2.key).map(\.event) == [.add(1)])
        #expect(core.version(of: "tally") == 4)
        var next = core
        let fired = next.fireTimer(core.pendingTimers[0].id, at: start.addingTimeInterval(5))
        #expect(fired != nil)
        #expect(next.state(of: TallyV2.key) == TallyV2.State(total: 3))
    }

    @Test func aMigratedSessionIsStoredAtTheNewVersionAndReadBackAsIs() throws {
        let migrated = try Self.decode(try storedByVersionOne(), with: [TallyV2.self])
        let again = try Self.decode(try JSONEncoder().encode(migrated), with: [TallyV2.self])
        #expect(again == migrated)
        // A version-2 store is refused by version 1, naming the feature and both versions.
        #expect(throws: SchemaError.newer(feature: "tally", stored: 2, current: 1)) {
            try Self.decode(try JSONEncoder().encode(migrated), with: [TallyV1.self])
        }
    }

    @Test func aVersionTheFeatureNoLongerMigratesFromIsRefusedNamingIt() throws {
        #expect(throws: SchemaError.cannotMigrate(feature: "tally", from: 1, to: 3)) {
            try Self.decode(try storedByVersionOne(), with: [TallyV3.self])
        }
    }

    @Test func journalEventsOfAnOlderVersionAreMigratedWhenReplayed() throws {
        var old = SessionCore(
            settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(TallyV1.key, state: .init())])
        let recorded = try old.encodeEvents([TallyV1.Event.add, .add], of: "tally")
        #expect(String(decoding: recorded, as: UTF8.self).hasPrefix("["), "version 1 keeps the bare array")
        _ = try old.apply([.add, .add], to: TallyV1.key, source: .client, at: start)

        var core = SessionCore(
            settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(TallyV2.key, state: .init())])
        try core.replay(.events(feature: "tally", at: start, source: .client, events: recorded))
        #expect(core.state(of: TallyV2.key) == TallyV2.State(total: 2))
        let written = try core.encodeEvents([TallyV2.Event.add(5)], of: "tally")
        #expect(String(decoding: written, as: UTF8.self) == #"{"events":[{"add":{"_0":5}}],"schema":2}"#
            || String(decoding: written, as: UTF8.self) == #"{"schema":2,"events":[{"add":{"_0":5}}]}"#)
        try core.replay(.events(feature: "tally", at: start, source: .client, events: written))
        #expect(core.state(of: TallyV2.key) == TallyV2.State(total: 7))
    }

    /// An import decodes a line's events from the line's own parse (``SessionCore/decodedAhead(_:parsed:of:)``):
    /// a bare array of an older version and the object form of the current one read as their stored text does.
    @Test func eventsDecodedAheadFromTheirParsedTextReplayAsTheirTextDoes() throws {
        let old = SessionCore(
            settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(TallyV1.key, state: .init())])
        let recorded = try old.encodeEvents([TallyV1.Event.add, .add], of: "tally")
        var core = SessionCore(
            settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(TallyV2.key, state: .init())])
        let written = try core.encodeEvents([TallyV2.Event.add(5)], of: "tally")
        var expected = 0
        for (data, adds) in [(recorded, 2), (written, 5)] {
            let parsed = try JSONParser.parse([UInt8](data), maxDepth: 64)
            let input = SessionInput.events(feature: "tally", at: start, source: .client, events: data)
            try core.replay(input, decoded: core.decodedAhead(data, parsed: parsed, of: "tally"), observe: nil)
            expected += adds
            #expect(core.state(of: TallyV2.key) == TallyV2.State(total: expected))
        }
        // The parse is what is decoded (the text is not read again): the caller vouches that it is the text's.
        let other = try JSONParser.parse(Array(#"{"schema":2,"events":[{"add":{"_0":40}}]}"#.utf8), maxDepth: 64)
        let input = SessionInput.events(feature: "tally", at: start, source: .client, events: written)
        try core.replay(input, decoded: core.decodedAhead(written, parsed: other, of: "tally"), observe: nil)
        #expect(core.state(of: TallyV2.key) == TallyV2.State(total: expected + 40))
    }

    @Test func typesSayWhichStoredVersionsTheyRead() {
        let types = FeatureTypes([TallyV3.self])
        #expect(throws: Never.self) { try types.check(feature: "tally", schema: 2) }
        #expect(throws: SchemaError.cannotMigrate(feature: "tally", from: 1, to: 3)) {
            try types.check(feature: "tally", schema: 1)
        }
        #expect(throws: SchemaError.newer(feature: "tally", stored: 4, current: 3)) {
            try types.check(feature: "tally", schema: 4)
        }
        #expect(throws: SchemaError.unknownFeature("todo")) { try types.check(feature: "todo", schema: 1) }
    }
}
