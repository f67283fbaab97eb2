import ViewHost
import ViewHostAPI
import ViewModelCore

/// A test-only feature whose intent has a field of a String-backed enum type, which no seed feature has: a card
/// goes in one of a retrospective board's columns.
enum RetroBoard: Feature {
    /// A board's column: the values of the intent's `column` field.
    enum Column: String, Codable, CaseIterable, Sendable {
        case wentWell, toImprove, actions
    }

    struct State: Codable, Equatable, Sendable {
        var cards: [String: [String]] = [:]
    }

    typealias Event = Intent

    enum Intent: FeatureIntent {
        case addCard(text: String, column: Column)

        static let feature = "retro"
        static let types = ["addCard"]

        var type: String { "addCard" }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: IntentCodingKeys.self)
            let type = try container.intentType()
            guard type == "addCard" else { throw container.unknownType(type, of: Self.feature) }
            self = .addCard(
                text: try container.string("text", limit: TextLimit(characters: 100)),
                column: try container.decode(Column.self, forKey: IntentCodingKeys("column")))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: IntentCodingKeys.self)
            switch self {
            case .addCard(let text, let column):
                try container.encode(type: type, ["text": text, "column": column.rawValue])
            }
        }
    }

    struct Snapshot: FeatureSnapshot {
        static let feature = "retro"
        var cards: [String: [String]]
    }

    static func check(_ event: Event, in state: State) throws(EventRefusal) {}

    static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<RetroBoard>) {
        switch event {
        case .addCard(let text, let column): state.cards[column.rawValue, default: []].append(text)
        }
    }

    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot(cards: state.cards) }

    static func describe(_ event: Event) -> EventDescription { EventDescription(name: event.type) }

    static let registration = FeatureRegistration.feature(
        RetroBoard.self, FeatureHosting(initialState: { _ in State() }))
}
