import Foundation
import SharedListAPI
import ViewHostAPI
import ViewModelCore

/// A shopping list two or more people edit together: a feature that can be shared (``isShareable``), so the owner of
/// a session invites others to it and every participant reads, posts to and streams the same list. Each item keeps
/// who added it, from ``FeatureContext/participant`` (the credential that posted it, never a field of the body), and
/// each participant's snapshot counts the items that participant added (a viewer-dependent snapshot).
public enum SharedListApp: ViewerDependentFeature {
    public typealias State = ListState
    public typealias Event = ListEvent
    public typealias Intent = ListIntent
    public typealias Snapshot = ListSnapshot

    /// Members may be invited to the list.
    public static var isShareable: Bool { true }

    /// The longest participant id an item names (a member's id is 1 to 32 letters and digits; the owner's `owner`).
    static let participantLimit = TextLimit(characters: 32)

    public static func event(for intent: ListIntent) throws(IntentRejection) -> ListEvent {
        switch intent {
        case .add(let text): .add(text: try trimmed(text))
        case .check(let item): .check(id: item)
        case .uncheck(let item): .uncheck(id: item)
        case .remove(let item): .remove(id: item)
        }
    }

    public static func check(_ event: ListEvent, in state: ListState) throws(EventRefusal) {
        switch event {
        case .add where state.items.count >= ListIntent.maxItems:
            throw EventRefusal(
                reason: "The list holds \(ListIntent.maxItems) items, the most it takes: remove one first.",
                allowed: allowed(in: state))
        case .check(let id), .uncheck(let id), .remove(let id):
            guard state.items.contains(where: { $0.id == id }) else {
                throw EventRefusal(reason: "There is no item '\(id)'.", allowed: allowed(in: state))
            }
        default:
            break
        }
    }

    public static func apply(
        _ event: ListEvent, to state: inout ListState, context: inout FeatureContext<SharedListApp>
    ) {
        switch event {
        case .add(let text):
            // Only a client adds, so the context names who; the owner when it does not (a test host's events).
            let by = context.participant ?? Participant.ownerID
            state.items.append(ListState.Item(id: "i\(state.nextID)", text: text, done: false, addedBy: by))
            state.nextID += 1
        case .check(let id), .uncheck(let id):
            let done = if case .check = event { true } else { false }
            guard let index = state.items.firstIndex(where: { $0.id == id }), state.items[index].done != done else {
                return
            }
            state.items[index].done = done
        case .remove(let id):
            state.items.removeAll { $0.id == id }
        }
        context.markChanged()
    }

    public static func snapshot(of state: ListState, settings: SessionSettings, viewer: Viewer) -> ListSnapshot {
        let items = state.items.map { item in
            ListSnapshot.Item(
                id: item.id, text: item.text, done: item.done, addedBy: item.addedBy,
                actions: .init(
                    toggle: ActionDescriptor(item.done ? ListIntent.uncheck(item: item.id) : .check(item: item.id)),
                    remove: ActionDescriptor(ListIntent.remove(item: item.id))))
        }
        return ListSnapshot(
            items: items, remaining: state.items.count(where: { !$0.done }),
            actions: .init(
                add: ActionDescriptor(
                    enabled: state.items.count < ListIntent.maxItems,
                    prompt: ActionPrompt(title: "New item", submit: "Add")
                ) { (text: String) in ListIntent.add(text: text) }),
            addedByYou: state.items.count(where: { $0.addedBy == viewer.participant }))
    }

    /// Refuses a list read from outside (a journal export) that the intents could not have made: a text past
    /// ``ListIntent/textLimit`` or empty, an id past ``ListIntent/itemLimit``, more than ``ListIntent/maxItems``
    /// items, an author that is no participant's id, a numbering out of range.
    public static func validate(state: ListState) throws(ValueRejection) {
        try ValueRejection.check(state.nextID, in: 1...SessionCore.maxCounter, field: "nextID")
        try ValueRejection.check(state.items.count, in: 0...ListIntent.maxItems, field: "items.count")
        for (index, item) in state.items.enumerated() {
            try ValueRejection.inside("items[\(index)]") { () throws(ValueRejection) in
                try ValueRejection.check(item.id, within: ListIntent.itemLimit, field: "id")
                try validate(text: item.text)
                try ValueRejection.check(item.addedBy, within: participantLimit, field: "addedBy")
                guard !item.addedBy.isEmpty, item.addedBy.unicodeScalars.allSatisfy(isLetterOrDigit) else {
                    throw ValueRejection(field: "addedBy", reason: "must be a participant's id: letters and digits")
                }
            }
        }
    }

    /// Refuses an event the intents could not have made, by the same limits.
    public static func validate(event: ListEvent) throws(ValueRejection) {
        switch event {
        case .add(let text): try validate(text: text)
        case .check(let id), .uncheck(let id), .remove(let id):
            try ValueRejection.check(id, within: ListIntent.itemLimit, field: "id")
        }
    }

    private static func validate(text: String) throws(ValueRejection) {
        try ValueRejection.check(text, within: ListIntent.textLimit, field: "text")
        guard !text.isEmpty else { throw ValueRejection(field: "text", reason: "must not be empty") }
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
    }

    /// White space as the text's pattern (`\S`, ECMA-262) counts it, so what the contract calls a text is one.
    private static let whiteSpace = CharacterSet(
        charactersIn: "\t\n\u{0B}\u{0C}\r \u{A0}\u{1680}\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}"
            + "\u{2007}\u{2008}\u{2009}\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}")

    private static func trimmed(_ text: String) throws(IntentRejection) -> String {
        let trimmed = text.trimmingCharacters(in: whiteSpace)
        guard !trimmed.isEmpty else { throw IntentRejection(field: "text", reason: "must not be empty") }
        return trimmed
    }

    private static func allowed(in state: ListState) -> [ListIntent.Kind] {
        var kinds: [ListIntent.Kind] = state.items.count < ListIntent.maxItems ? [.add] : []
        if !state.items.isEmpty { kinds += [.check, .uncheck, .remove] }
        return kinds
    }
}
