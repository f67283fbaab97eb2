import ViewHostAPI
import ViewModelCore

/// A board's stage: the values of the intent's `to` field, an enum the person picks from.
enum Stage: String, Codable, CaseIterable, Sendable, ActionInputValue {
    case todo, doing, done
}

/// Intents with a field of each kind an action can carry: a string, an enum, an integer, an optional string.
enum BoardIntent: FeatureIntent {
    case add(title: String)
    case move(card: String, to: Stage)
    case vote(card: String, votes: Int, note: String? = nil)
    case clear

    enum Kind: String, IntentKind { case add, move, vote, clear }

    static let feature = "board"

    var kind: Kind {
        switch self {
        case .add: .add
        case .move: .move
        case .vote: .vote
        case .clear: .clear
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: IntentCodingKeys.self)
        let limit = TextLimit(characters: 50)
        switch try container.kind(Kind.self) {
        case .add: self = .add(title: try container.string("title", limit: limit))
        case .move:
            self = .move(
                card: try container.string("card", limit: limit),
                to: try container.decode(Stage.self, forKey: IntentCodingKeys("to")))
        case .vote:
            self = .vote(
                card: try container.string("card", limit: limit),
                votes: try container.decode(Int.self, forKey: IntentCodingKeys("votes")),
                note: try container.optionalString("note", limit: limit))
        case .clear: self = .clear
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        switch self {
        case .add(let title): try container.encode(kind: kind, ["title": title])
        case .move(let card, let stage): try container.encode(kind: kind, ["card": card, "to": stage])
        case .vote(let card, let votes, let note): try container.encode(kind: kind, ["card": card, "votes": votes, "note": note])
        case .clear: try container.encode(kind: kind)
        }
    }
}

/// A feature whose events are its intents and that writes no `describe`: the data-flow log's lines derive from
/// the intents' encoding.
enum Board: Feature {
    typealias State = [String: Stage]
    typealias Event = BoardIntent
    typealias Intent = BoardIntent

    struct Snapshot: FeatureSnapshot {
        static let feature = "board"
        var cards: [String: Stage]
    }

    static func check(_ event: BoardIntent, in state: State) throws(EventRefusal) {
        if case .move(let card, _) = event, state[card] == nil {
            throw EventRefusal(reason: "There is no card '\(card)'.", allowed: [BoardIntent.Kind.add, .clear])
        }
    }

    static func apply(_ event: BoardIntent, to state: inout State, context: inout FeatureContext<Board>) {
        switch event {
        case .add(let title): state[title] = .todo
        case .move(let card, let stage): state[card] = stage
        case .vote: break
        case .clear: state = [:]
        }
        context.markChanged()
    }

    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(cards: state) }
}
