import Foundation
import Testing
import ViewHostAPI
import ViewModelCore

/// An intent's names are written once, as its `Kind`: the list of types, the `type` member, the decoder's refusal,
/// the refusals' `allowed` lists and the data-flow log's names derive from it.
struct FeatureIntentKindTests {
    @Test func typesAndTypeComeFromTheKind() {
        #expect(BoardIntent.types == ["add", "move", "vote", "clear"])
        #expect(BoardIntent.vote(card: "c1", votes: 2).type == "vote")
        #expect(BoardIntent.clear.kind == .clear)
        #expect(NoIntent.types.isEmpty)
    }

    @Test func anIntentDecodesItsKindAndRefusesAnUnknownOneListingTheKinds() throws {
        let decoded = try JSONDecoder().decode(BoardIntent.self, from: Data(#"{"type":"move","card":"c1","to":"done"}"#.utf8))
        #expect(decoded == .move(card: "c1", to: .done))
        do {
            _ = try JSONDecoder().decode(BoardIntent.self, from: Data(#"{"type":"dance"}"#.utf8))
            Issue.record("an unknown type decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == "'dance' is not an event type; the event types: add, move, vote, clear")
            #expect(context.codingPath.map(\.stringValue) == ["type"])
        }
    }

    @Test func encodingWritesTheKindAndTheFieldsOfAnyEncodableTypeLeavingOutNil() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let vote = String(decoding: try encoder.encode(BoardIntent.vote(card: "c1", votes: 3)), as: UTF8.self)
        #expect(vote == #"{"card":"c1","type":"vote","votes":3}"#)
        let move = String(decoding: try encoder.encode(BoardIntent.move(card: "c1", to: .doing)), as: UTF8.self)
        #expect(move == #"{"card":"c1","to":"doing","type":"move"}"#)
    }

    /// An intent written before `Kind` (its `types` and `type` as strings) compiles and keeps its names.
    @Test func anIntentWrittenBeforeKindStillConforms() throws {
        struct Legacy: FeatureIntent {
            static let feature = "legacy"
            static let types = ["ping", "pong"]
            var type: String
            init(type: String) { self.type = type }
            init(from decoder: any Decoder) throws {
                type = try decoder.container(keyedBy: IntentCodingKeys.self).decode(String.self, forKey: .type)
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: IntentCodingKeys.self)
                try container.encode(type, forKey: .type)
            }
        }
        #expect(Legacy.types == ["ping", "pong"])
        #expect(Legacy(type: "pong").kind == IntentTypeName(rawValue: "pong"))
        #expect(ActionDescriptor(Legacy(type: "pong")) == ActionDescriptor(event: "pong"))
    }

    @Test func aRefusalListsTheKindsByTheirWireNames() {
        let refusal = EventRefusal(reason: "No.", allowed: [BoardIntent.Kind.add, .clear])
        #expect(refusal.allowed == ["add", "clear"])
        #expect(throws: EventRefusal(reason: "There is no card 'c9'.", allowed: ["add", "clear"])) {
            try Board.check(.move(card: "c9", to: .done), in: [:])
        }
    }

    /// A feature that writes no `describe` gets one from its events' encoding: an intent's `type` and its fields.
    @Test func theDefaultDescriptionComesFromTheEventsEncoding() {
        #expect(
            Board.describe(.vote(card: "c1", votes: 3))
                == EventDescription(name: "vote", summary: #"card="c1" votes=3"#))
        #expect(Board.describe(.move(card: "c1", to: .done)) == EventDescription(name: "move", summary: #"card="c1" to="done""#))
        #expect(Board.describe(.clear) == EventDescription(name: "clear"))
        #expect(
            Board.describe(.add(title: String(repeating: "é", count: 40)))
                == EventDescription(name: "add", summary: "title=\"" + String(repeating: "é", count: 15) + "…\""))
    }

    /// An event enum with Swift's synthesized `Codable`: the case's name, its labelled values, an unlabelled one bare.
    @Test func anEnumEventIsDescribedByItsCase() {
        enum Event: Codable {
            case edit(id: String, title: String)
            case undo
            case rename(String)
            case tagged(id: String, tags: [String])
        }
        #expect(EventDescription(deriving: Event.edit(id: "t1", title: "Milk")) == EventDescription(name: "edit", summary: #"id="t1" title="Milk""#))
        #expect(EventDescription(deriving: Event.undo) == EventDescription(name: "undo"))
        #expect(EventDescription(deriving: Event.rename("Paris")) == EventDescription(name: "rename", summary: #""Paris""#))
        #expect(EventDescription(deriving: Event.tagged(id: "t1", tags: ["a"])) == EventDescription(name: "tagged", summary: #"id="t1" tags=[…]"#))
    }
}
