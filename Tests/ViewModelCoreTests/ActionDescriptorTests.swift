import Foundation
import Testing
import ViewHostAPI

/// An action is made from an intent value: its event and field names come from the intent's own coding, and the
/// fields the person fills in are typed, so an integer or an enum value can be offered and posted.
struct ActionDescriptorTests {
    static func json(_ action: ActionDescriptor) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(action), as: UTF8.self)
    }

    static func decoded(_ json: String) throws -> ActionDescriptor {
        try JSONDecoder().decode(ActionDescriptor.self, from: Data(json.utf8))
    }

    @Test func anActionFromAnIntentPostsWhatTheIntentEncodes() throws {
        let move = ActionDescriptor(BoardIntent.move(card: "c1", to: .done), enabled: false)
        #expect(move == ActionDescriptor(event: "move", fields: ["card": "c1", "to": "done"], enabled: false))
        #expect(try Self.json(move) == #"{"body":{"card":"c1","to":"done","type":"move"},"enabled":false,"method":"POST"}"#)
        #expect(ActionDescriptor(BoardIntent.vote(card: "c1", votes: 3)).fields == ["card": "c1", "votes": 3])
        #expect(ActionDescriptor(BoardIntent.clear) == ActionDescriptor(event: "clear"))
    }

    /// A string input is the `{name}` placeholder actions always had, and no `inputs` member: the seed features'
    /// snapshots are the same bytes as before.
    @Test func aStringInputIsThePlaceholderItAlwaysWas() throws {
        let prompt = ActionPrompt(title: "New card", submit: "Add")
        let add = ActionDescriptor(prompt: prompt) { (title: String) in BoardIntent.add(title: title) }
        #expect(add == ActionDescriptor(event: "add", fields: ["title": "{title}"], prompt: prompt))
        #expect(add.fields == ["title": .input("title")])
        #expect(
            try Self.json(add)
                == #"{"body":{"title":"{title}","type":"add"},"method":"POST","prompt":{"submit":"Add","title":"New card"}}"#)
        #expect(try Self.decoded(try Self.json(add)) == add)
    }

    @Test func typedInputsAreListedWithWhatTheyTake() throws {
        let vote = ActionDescriptor { (votes: Int) in BoardIntent.vote(card: "c1", votes: votes) }
        #expect(vote.fields == ["card": "c1", "votes": .input("votes", .integer)])
        #expect(
            try Self.json(vote)
                == #"{"body":{"card":"c1","type":"vote","votes":"{votes}"},"inputs":{"votes":{"type":"integer"}},"method":"POST"}"#)
        let move = ActionDescriptor { (card: String, stage: Stage) in BoardIntent.move(card: card, to: stage) }
        #expect(move.placeholders == [ActionPlaceholder(name: "card"), ActionPlaceholder(name: "to", type: .oneOf(["todo", "doing", "done"]))])
        #expect(
            try Self.json(move)
                == #"{"body":{"card":"{card}","to":"{to}","type":"move"},"inputs":{"to":{"enum":["todo","doing","done"],"type":"string"}},"method":"POST"}"#)
        // What a client reads back is the same action, inputs and all.
        #expect(try Self.decoded(try Self.json(vote)) == vote)
        #expect(try Self.decoded(try Self.json(move)) == move)
    }

    @Test func anOptionalFieldLeftNilIsLeftOutAndAnUnusedInputMakesNoPlaceholder() {
        let vote = ActionDescriptor { (votes: Int, note: String) in BoardIntent.vote(card: "c1", votes: votes) }
        #expect(vote.fields == ["card": "c1", "votes": .input("votes", .integer)])
        let noted = ActionDescriptor { (note: String) in BoardIntent.vote(card: "c1", votes: 1, note: note) }
        #expect(noted.fields == ["card": "c1", "votes": 1, "note": .input("note")])
    }

    @Test func fillingConvertsWhatThePersonTypedToWhatEachPlaceholderTakes() throws {
        let vote = ActionDescriptor { (votes: Int) in BoardIntent.vote(card: "c1", votes: votes) }
        #expect(try vote.body(filling: ["votes": "3"]).get() == ["type": "vote", "card": "c1", "votes": 3])
        #expect(try vote.body(filling: ["votes": .integer(4)]).get() == ["type": "vote", "card": "c1", "votes": 4])
        #expect(vote.body(filling: ["votes": "three"]) == .failure(.init(name: "votes", expected: .integer)))
        #expect(vote.body(filling: [String: String]()) == .failure(.init(name: "votes", expected: nil)))
        #expect(ActionDescriptor.ParameterError(name: "votes", expected: .integer).description == "{votes} must be an integer")

        let move = ActionDescriptor { (stage: Stage) in BoardIntent.move(card: "c1", to: stage) }
        #expect(try move.body(filling: ["to": "doing"]).get() == ["type": "move", "card": "c1", "to": "doing"])
        #expect(
            move.body(filling: ["to": "later"]) == .failure(.init(name: "to", expected: .oneOf(["todo", "doing", "done"]))))
    }

    /// A body written by an older server (string placeholders only) or by hand reads as before.
    @Test func aServedActionWithoutInputsReadsItsPlaceholdersAsStrings() throws {
        let action = try Self.decoded(
            #"{"body":{"contact":"John","text":"{text}","type":"send"},"enabled":true,"href":"/v1/sessions/x/chat/events","method":"POST"}"#)
        #expect(action.event == "send")
        #expect(action.fields == ["contact": "John", "text": .input("text")])
        #expect(action.href == "/v1/sessions/x/chat/events")
        #expect(try action.body(filling: ["text": "Hi"]).get() == ["type": "send", "contact": "John", "text": "Hi"])
    }

    /// What an intent's encoding writes is captured as JSON would carry it: an integer of a type wider than `Int` may
    /// be (or unsigned) is an integer when `Int` holds it, else the nearest number.
    @Test func wideIntegersAreCapturedAsIntegersWhenIntHoldsThem() throws {
        struct Wide: Encodable {
            var int64 = Int64.min
            var uint = UInt.max
            var uint32 = UInt32.max
            var uint64 = UInt64.max
            var smallUInt64: UInt64 = 7
            var int8 = Int8.min
        }
        let members = try #require(try CapturingEncoder.capture(Wide()).members)
        var captured: [String: String] = [:]
        for (key, value) in members {
            switch value {
            case .integer(let number): captured[key] = "integer \(number)"
            case .number(let number): captured[key] = "number \(number)"
            default: captured[key] = "other"
            }
        }
        #expect(
            captured == [
                "int64": "integer \(Int64.min)", "uint": "number \(Double(UInt.max))",
                "uint32": "integer \(UInt32.max)", "uint64": "number \(Double(UInt64.max))",
                "smallUInt64": "integer 7", "int8": "integer -128",
            ])
    }
}
