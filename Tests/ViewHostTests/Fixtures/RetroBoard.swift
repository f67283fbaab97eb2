import ViewHost
import ViewHostAPI
import ViewModelCore

/// A test-only feature whose intents have fields of a String-backed enum type and of an integer, which no seed
/// feature has: a card goes in one of a retrospective board's columns, and gets votes. Its snapshot offers both as
/// actions with typed inputs (`inputs`: the column's cases, the votes an integer).
enum RetroBoard: Feature {
    /// A board's column: the values of the intent's `column` field.
    enum Column: String, Codable, CaseIterable, Sendable, ActionInputValue {
        case wentWell, toImprove, actions
    }

    struct State: Codable, Equatable, Sendable {
        var cards: [String: [String]] = [:]
        var votes: [String: Int] = [:]
    }

    typealias Event = Intent

    enum Intent: FeatureIntent {
        case addCard(text: String, column: Column)
        case vote(card: String, votes: Int)

        enum Kind: String, IntentKind { case addCard, vote }

        static let feature = "retro"

        var kind: Kind {
            switch self {
            case .addCard: .addCard
            case .vote: .vote
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: IntentCodingKeys.self)
            switch try container.kind(Kind.self) {
            case .addCard:
                self = .addCard(
                    text: try container.string("text", limit: TextLimit(characters: 100)),
                    column: try container.decode(Column.self, forKey: IntentCodingKeys("column")))
            case .vote:
                self = .vote(
                    card: try container.string("card", limit: TextLimit(characters: 100)),
                    votes: try container.decode(Int.self, forKey: IntentCodingKeys("votes")))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: IntentCodingKeys.self)
            switch self {
            case .addCard(let text, let column): try container.encode(kind: kind, ["text": text, "column": column])
            case .vote(let card, let votes): try container.encode(kind: kind, ["card": card, "votes": votes])
            }
        }
    }

    struct Snapshot: FeatureSnapshot {
        static let feature = "retro"
        var cards: [String: [String]]
        var votes: [String: Int]
        /// `addCard`, and `vote` per card (named by its text).
        var actions: [String: ActionDescriptor]
    }

    static func check(_ event: Event, in state: State) throws(EventRefusal) {
        if case .vote(let card, _) = event, !state.cards.values.contains(where: { $0.contains(card) }) {
            throw EventRefusal(reason: "There is no card '\(card)'.", allowed: [Intent.Kind.addCard])
        }
    }

    static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<RetroBoard>) {
        switch event {
        case .addCard(let text, let column): state.cards[column.rawValue, default: []].append(text)
        case .vote(let card, let votes): state.votes[card] = votes
        }
        context.markChanged()
    }

    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot {
        var actions = [
            "addCard": ActionDescriptor(prompt: ActionPrompt(title: "New card", submit: "Add")) {
                (text: String, column: Column) in Intent.addCard(text: text, column: column)
            }
        ]
        for card in state.cards.values.joined() {
            actions["vote " + card] = ActionDescriptor { (votes: Int) in Intent.vote(card: card, votes: votes) }
        }
        return Snapshot(cards: state.cards, votes: state.votes, actions: actions)
    }

    static let registration = FeatureRegistration.feature(
        RetroBoard.self, FeatureHosting(initialState: { _ in State() }))
}
