import Foundation
import ViewHost
import ViewHostAPI
import ViewHostCommandLine
import ViewModelCore

// A test-only app (not a product): ViewHost serving one `tally` feature, in the schema version
// `SCHEMA_TEST_TALLY_VERSION` names (1 by default), so that one binary stands for the build before and after a
// change of a feature's stored shape, and one that cannot read what an earlier build stored. The take-over tests
// (Tests/ServerTests/TakeOverSchemaProcessTests.swift) start it; the `viewhost` binary reads no such variable.
// SCHEMA_TEST_SHARED=1 adds two features for the viewer-dependent snapshots' process tests (SharedBoard.swift).
//   1: the state is a count.
//   2: the state gained a field, `label` ("tally" by default), and version 1 is migrated as it is read.
//   3: the state is version 2's, but version 1 and 2 are not migrated: a store that holds them is refused (65).
let version = ProcessInfo.processInfo.environment["SCHEMA_TEST_TALLY_VERSION"] ?? "1"
let tally: FeatureRegistration
switch version {
case "1": tally = .feature(TallyV1.self, FeatureHosting(initialState: { _ in TallyV1.State() }))
case "2": tally = .feature(TallyV2.self, FeatureHosting(initialState: { _ in TallyV2.State() }))
case "3": tally = .feature(TallyV3.self, FeatureHosting(initialState: { _ in TallyV2.State() }))
default:
    FileHandle.standardError.write(Data("schema-test-server: SCHEMA_TEST_TALLY_VERSION must be 1, 2 or 3\n".utf8))
    exit(64)
}
// SCHEMA_TEST_SHARED=1 adds two features members may be invited to (SharedBoard.swift): `board`, whose snapshot
// depends on who looks, and `shared`, whose snapshot does not.
let shared: [FeatureRegistration] =
    ProcessInfo.processInfo.environment["SCHEMA_TEST_SHARED"] == "1"
    ? [
        .feature(Board.self, FeatureHosting(initialState: { _ in Board.State() })),
        .feature(SharedTally.self, FeatureHosting(initialState: { _ in 0 })),
    ] : []
await ViewHostCommand.run(features: [tally] + shared, name: "schema-test-server")

/// What clients post: `{"type":"add"}`.
enum TallyIntent: FeatureIntent {
    case add

    enum Kind: String, IntentKind { case add }

    static let feature = "tally"
    var kind: Kind { .add }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: IntentCodingKeys.self)
        switch try container.kind(Kind.self) {
        case .add: self = .add
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        try container.encode(kind: kind)
    }
}

enum TallyEvent: Codable, Equatable, Sendable { case add }

/// Version 1: a count.
enum TallyV1: Feature {
    struct State: Codable, Equatable, Sendable { var count = 0 }
    struct Snapshot: FeatureSnapshot {
        static let feature = "tally"
        let count: Int
    }

    static func event(for intent: TallyIntent) throws(IntentRejection) -> TallyEvent { .add }
    static func check(_ event: TallyEvent, in state: State) throws(EventRefusal) {}
    static func apply(_ event: TallyEvent, to state: inout State, context: inout FeatureContext<TallyV1>) {
        state.count += 1
        context.markChanged()
    }
    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(count: state.count) }
}

/// Version 2: the state gained `label`; a version 1 state reads with the default.
enum TallyV2: Feature {
    struct State: Codable, Equatable, Sendable {
        var count = 0
        var label = "tally"
    }
    struct Snapshot: FeatureSnapshot {
        static let feature = "tally"
        let count: Int
        let label: String
    }

    static let schemaVersion = 2
    static let oldestMigratableVersion = 1

    static func event(for intent: TallyIntent) throws(IntentRejection) -> TallyEvent { .add }
    static func check(_ event: TallyEvent, in state: State) throws(EventRefusal) {}
    static func apply(_ event: TallyEvent, to state: inout State, context: inout FeatureContext<TallyV2>) {
        state.count += 1
        context.markChanged()
    }
    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot {
        Snapshot(count: state.count, label: state.label)
    }
    static func migrate(state decoder: any Decoder, from version: Int) throws -> State {
        State(count: try TallyV1.State(from: decoder).count)
    }
    static func migrate(event decoder: any Decoder, from version: Int) throws -> TallyEvent {
        try TallyEvent(from: decoder)
    }
}

/// Version 3: reads nothing older than itself, so a store of version 1 or 2 is refused when it opens.
enum TallyV3: Feature {
    typealias State = TallyV2.State
    typealias Snapshot = TallyV2.Snapshot

    static let schemaVersion = 3

    static func event(for intent: TallyIntent) throws(IntentRejection) -> TallyEvent { .add }
    static func check(_ event: TallyEvent, in state: State) throws(EventRefusal) {}
    static func apply(_ event: TallyEvent, to state: inout State, context: inout FeatureContext<TallyV3>) {
        state.count += 1
        context.markChanged()
    }
    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot {
        TallyV2.snapshot(of: state, settings: settings)
    }
}
