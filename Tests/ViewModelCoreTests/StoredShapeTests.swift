import Foundation
import Testing
import ViewHostAPI
import ViewModelCore

/// A feature's stored shape is probed from its types alone, and a change of it that leaves stored values unreadable
/// is found by comparing shapes (what a store does when it opens), naming the member; a change they still decode
/// through, and what the probe could not see, is not.
struct StoredShapeTests {
    /// A to-do list at its first shape.
    enum ListV1: ShapedFeature {
        struct Item: Codable, Equatable, Sendable {
            var title: String
            var done: Bool
        }

        enum Filter: String, Codable, CaseIterable, Sendable {
            case all, open, done
        }

        struct State: Codable, Equatable, Sendable {
            var items: [Item] = []
            var filter = Filter.all
            var tags: [String: Int] = [:]
            var note: String?
            var due: Date?
        }
    }

    /// What an author writes next, forgetting the version: each item gains a required `priority`.
    enum ListWithPriority: ShapedFeature {
        struct Item: Codable, Equatable, Sendable {
            var title: String
            var done: Bool
            var priority = 0
        }

        struct State: Codable, Equatable, Sendable {
            var items: [Item] = []
            var filter = ListV1.Filter.all
            var tags: [String: Int] = [:]
            var note: String?
            var due: Date?
        }
    }

    /// Changes stored values still decode through: a new optional member, one removed, a member made optional,
    /// an integer read as a number, the members in another order.
    enum ListCompatible: ShapedFeature {
        struct Item: Codable, Equatable, Sendable {
            var done: Bool
            var title: String?
            var colour: String?
        }

        struct State: Codable, Equatable, Sendable {
            var tags: [String: Double] = [:]
            var items: [Item] = []
            var filter = ListV1.Filter.all
            var due: Date?
        }
    }

    /// The filter lost a case stored values may hold.
    enum ListFewerFilters: ShapedFeature {
        enum Filter: String, Codable, CaseIterable, Sendable {
            case all, open
        }

        struct State: Codable, Equatable, Sendable {
            var items: [ListV1.Item] = []
            var filter = Filter.all
            var tags: [String: Int] = [:]
            var note: String?
            var due: Date?
        }
    }

    /// A member's kind changed, and an optional one became required.
    enum ListRetyped: ShapedFeature {
        struct State: Codable, Equatable, Sendable {
            var items: [ListV1.Item] = []
            var filter = ListV1.Filter.all
            var tags: [String: String] = [:]
            var note: String?
            var due: Date?
        }
    }

    enum ListNoteRequired: ShapedFeature {
        struct State: Codable, Equatable, Sendable {
            var items: [ListV1.Item] = []
            var filter = ListV1.Filter.all
            var tags: [String: Int] = [:]
            var note = ""
            var due: Date?
        }
    }

    @Test func theShapeIsWhatTheTypesReadAndTheSameEveryTime() throws {
        let shape = StoredShape(of: ListV1.self)
        let item = StoredShape.Node.object(
            ["title": .init(.value("string")), "done": .init(.value("bool"))], complete: true)
        #expect(
            shape.state
                == .object(
                    [
                        "items": .init(.list(item)), "filter": .init(.choice("string", ["all", "done", "open"])),
                        "tags": .init(.map(key: .value("string"), value: .value("integer"))),
                        "note": .init(.value("string"), optional: true), "due": .init(.value("date"), optional: true),
                    ], complete: true))
        // An enum with associated values reads a case name the probe cannot know: unknown, never compared.
        #expect(shape.event == .unknown)
        #expect(shape.request == .unknown)
        #expect(shape.text == StoredShape(of: ListV1.self).text)
        #expect(StoredShape(text: shape.text) == shape)
    }

    /// Optionals the probe reaches as a type of their own (a list of optionals, an optional read with `decode`
    /// rather than `decodeIfPresent`): the probe made their empty value through a property of the same name, which
    /// called itself (the compiler's "function call causes an infinite recursion", in a clean build), so the start
    /// of a server with such a feature would have overflowed its stack.
    enum ListOfOptionals: ShapedFeature {
        struct State: Codable, Equatable, Sendable {
            var aliases: [String?] = []
            var scores: [String: Int?] = [:]
            var nested: Int?? = nil
        }
    }

    @Test func optionalsReachedAsTypesAreProbed() {
        let shape = StoredShape(of: ListOfOptionals.self)
        #expect(shape.text.contains("aliases"), "\(shape.text)")
        #expect(StoredShape(text: shape.text) == shape)
    }

    @Test func aNewRequiredMemberIsABreakingChangeNamedByItsPath() {
        #expect(
            StoredShape(of: ListWithPriority.self).breakingChange(from: StoredShape(of: ListV1.self))
                == "state.items[].priority is new and required")
    }

    @Test func changesStoredValuesStillDecodeThroughAreNot() {
        #expect(StoredShape(of: ListCompatible.self).breakingChange(from: StoredShape(of: ListV1.self)) == nil)
        #expect(StoredShape(of: ListV1.self).breakingChange(from: StoredShape(of: ListV1.self)) == nil)
    }

    @Test func aDroppedCaseARetypedMemberAndAMemberNoLongerOptionalAreBreaking() {
        let stored = StoredShape(of: ListV1.self)
        #expect(
            StoredShape(of: ListFewerFilters.self).breakingChange(from: stored) == "state.filter no longer takes done")
        #expect(
            StoredShape(of: ListRetyped.self).breakingChange(from: stored) == "state.tags[key] was integer, is string")
        #expect(StoredShape(of: ListNoteRequired.self).breakingChange(from: stored) == "state.note is now required")
    }

    /// A member the probe cannot make (an enum with associated values) ends its container's probe there: what
    /// follows is not seen, so a member new after it is not counted as new, and reordering members changes nothing.
    @Test func whatTheProbeCannotSeeIsNeverCountedAsChanged() {
        let before = StoredShape(of: Screens.self)
        guard case .object(let members, let complete) = before.state else {
            Issue.record("\(before.state)")
            return
        }
        #expect(!complete)
        #expect(members["first"] == .init(.value("integer")))
        #expect(members["screen"] == .init(.unknown))
        #expect(StoredShape(of: ScreensLater.self).breakingChange(from: before) == nil)
        #expect(StoredShape(of: ScreensReordered.self).breakingChange(from: before) == nil)
        #expect(before.breakingChange(from: StoredShape(of: ScreensReordered.self)) == nil)
    }

    /// A recursive type, a set, a wrapper read as a single value, an optional list: the probe ends and records them.
    @Test func recursionSetsAndWrappersAreProbed() {
        let shape = StoredShape(of: Tree.self)
        guard case .object(let members, true) = shape.state else {
            Issue.record("\(shape.state)")
            return
        }
        #expect(members["name"] == .init(.value("string")))
        #expect(members["id"] == .init(.value("integer")))
        #expect(members["labels"] == .init(.list(.value("string"))))
        #expect(members["children"] == .init(.list(.unknown), optional: true))
    }

    /// Text kept by a store is outside data: another format, or not a shape, is not compared.
    @Test func keptTextThatIsNotAShapeOfThisFormatIsNotOne() {
        #expect(StoredShape(text: "0:{}") == nil)
        #expect(StoredShape(text: "1:not json") == nil)
        #expect(StoredShape(text: "1:" + String(repeating: "[", count: 100_000)) == nil)
        #expect(StoredShape(text: "") == nil)
    }

    @Test func featureTypesRefuseABreakingChangeAtTheSameVersionOnly() throws {
        let kept = StoredShape(of: ListV1.self).text
        let types = FeatureTypes([ListWithPriority.self])
        #expect(
            throws: SchemaError.shapeChanged(
                feature: "list", version: 1, change: "state.items[].priority is new and required")
        ) {
            try types.checkShape(of: "list", kept: kept, version: 1)
        }
        // Kept by an older version (the feature migrates from it), or a feature this app does not register.
        try types.checkShape(of: "list", kept: kept, version: 0)
        try types.checkShape(of: "other", kept: kept, version: 1)
        #expect(
            "\(SchemaError.shapeChanged(feature: "list", version: 1, change: "state.items[].priority is new and required"))"
                == "feature 'list' changed the shape of its stored data but not its schemaVersion (1): "
                + "state.items[].priority is new and required, so the sessions stored by schema version 1 would not be "
                + "read; raise schemaVersion to 2 and migrate version 1 in migrate(state:from:) and migrate(event:from:)"
        )
    }
}

/// A state whose second member is an enum with associated values.
enum Screens: ShapedFeature {
    enum Screen: Codable, Equatable, Sendable {
        case list
        case detail(id: Int)
    }

    struct State: Codable, Equatable, Sendable {
        var first = 0
        var screen = Screen.list
        var after = ""
    }
}

enum ScreensLater: ShapedFeature {
    struct State: Codable, Equatable, Sendable {
        var first = 0
        var screen = Screens.Screen.list
        var after = ""
        var added = 0
    }
}

enum ScreensReordered: ShapedFeature {
    struct State: Codable, Equatable, Sendable {
        var after = ""
        var first = 0
        var screen = Screens.Screen.list
    }
}

enum Tree: ShapedFeature {
    struct Identifier: Codable, Equatable, Sendable {
        var value: Int

        init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(Int.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    struct State: Codable, Equatable, Sendable {
        var name = ""
        var id: Identifier
        var labels: Set<String> = []
        var children: [State]?
    }
}

/// A feature that only has a state, for probing shapes.
protocol ShapedFeature: Feature where Event == ShapedEvent, Snapshot == ShapedSnapshot {}

enum ShapedEvent: Codable, Equatable, Sendable {
    case set(Int)
}

struct ShapedSnapshot: FeatureSnapshot {
    static let feature = "list"
}

extension ShapedFeature {
    static func check(_ event: Event, in state: State) throws(EventRefusal) {}
    static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<Self>) {}
    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { ShapedSnapshot() }
    static func describe(_ event: Event) -> EventDescription { EventDescription(name: "set") }
}
