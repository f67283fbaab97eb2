import ViewHostAPI
import ViewModelCore

// Two features a shared session's owner may invite members to (registered when SCHEMA_TEST_SHARED=1), for the
// process tests of viewer-dependent snapshots (Tests/ServerTests/ViewerSnapshotProcessTests.swift): `board`, whose
// snapshot shows each viewer how many items it added itself, and `tally`'s shared twin `shared`, which shows every
// viewer the same.

/// What clients post to `board`: `{"type":"add","text":"milk"}`.
enum BoardIntent: FeatureIntent {
    case add(text: String)

    enum Kind: String, IntentKind { case add }

    static let feature = "board"
    var kind: Kind { .add }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: IntentCodingKeys.self)
        switch try container.kind(Kind.self) {
        case .add: self = .add(text: try container.string("text", limit: TextLimit(characters: 100)))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        switch self {
        case .add(let text): try container.encode(kind: kind, ["text": text])
        }
    }
}

/// A shared list whose snapshot depends on who looks: every item with who added it, and `addedByYou`, the viewer's
/// own count.
enum Board: ViewerDependentFeature {
    struct Item: Codable, Equatable, Sendable {
        let text: String
        /// The participant that added it (`owner` for the owner).
        let by: String
    }

    struct State: Codable, Equatable, Sendable { var items: [Item] = [] }

    struct Snapshot: FeatureSnapshot {
        static let feature = "board"
        let items: [Item]
        let addedByYou: Int
    }

    static let isShareable = true

    static func event(for intent: BoardIntent) throws(IntentRejection) -> String {
        switch intent {
        case .add(let text): text
        }
    }

    static func check(_ event: String, in state: State) throws(EventRefusal) {}

    /// Adds the item, as added by who sent it (the context names them, from the credential; never the body).
    static func apply(_ event: String, to state: inout State, context: inout FeatureContext<Board>) {
        state.items.append(Item(text: event, by: context.participant ?? Participant.ownerID))
        context.markChanged()
    }

    static func snapshot(of state: State, settings: SessionSettings, viewer: Viewer) -> Snapshot {
        Snapshot(items: state.items, addedByYou: state.items.count { $0.by == viewer.participant })
    }
}

/// What clients post to `shared`: `{"type":"add"}`.
struct SharedTallyIntent: FeatureIntent {
    enum Kind: String, IntentKind { case add }

    static let feature = "shared"
    var kind: Kind { .add }

    init() {}

    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: IntentCodingKeys.self).kind(Kind.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        try container.encode(kind: kind)
    }
}

/// A count every participant may add to, the same for every viewer.
enum SharedTally: Feature {
    struct Snapshot: FeatureSnapshot {
        static let feature = "shared"
        let count: Int
    }

    static let isShareable = true

    static func event(for intent: SharedTallyIntent) throws(IntentRejection) -> Int { 1 }
    static func check(_ event: Int, in state: Int) throws(EventRefusal) {}
    static func apply(_ event: Int, to state: inout Int, context: inout FeatureContext<SharedTally>) {
        state += event
        context.markChanged()
    }
    static func snapshot(of state: Int, settings: SessionSettings) -> Snapshot { Snapshot(count: state) }
}
