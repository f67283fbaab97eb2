import Foundation
import TodoAPI
import ViewHostAPI
import ViewModelCore

/// A to-do list as a ViewHost feature: a pure state machine over ``TodoState``. Removing items opens an undo window
/// of ``undoWindow``, closed by a timer of the feature's own.
public enum TodoApp: Feature {
    public typealias State = TodoState
    public typealias Event = TodoEvent
    public typealias Intent = TodoIntent
    public typealias Snapshot = TodoSnapshot

    /// How long `undo` can bring back what `remove` or `clearCompleted` took.
    public static let undoWindow: Duration = .seconds(5)

    public static func event(for intent: TodoIntent) throws(IntentRejection) -> TodoEvent {
        switch intent {
        case .add(let title): .add(title: try trimmed(title))
        case .toggle(let item): .toggle(id: item)
        case .edit(let item, let title): .edit(id: item, title: try trimmed(title))
        case .remove(let item): .remove(id: item)
        case .clearCompleted: .clearCompleted
        case .undo: .undo
        }
    }

    public static func check(_ event: TodoEvent, in state: TodoState) throws(EventRefusal) {
        switch event {
        case .toggle(let id), .edit(let id, _), .remove(let id):
            guard state.items.contains(where: { $0.id == id }) else {
                throw EventRefusal(reason: "There is no item '\(id)'.", allowed: allowed(in: state))
            }
        case .clearCompleted where !state.items.contains(where: \.done):
            throw EventRefusal(reason: "No item is done.", allowed: allowed(in: state))
        case .undo where state.undo == nil:
            throw EventRefusal(reason: "There is nothing to undo.", allowed: allowed(in: state))
        default:
            break
        }
    }

    public static func apply(_ event: TodoEvent, to state: inout TodoState, context: inout FeatureContext<TodoApp>) {
        switch event {
        case .add(let title):
            state.items.append(TodoState.Item(id: "t\(state.nextID)", title: title, done: false))
            state.nextID += 1
        case .toggle(let id):
            guard let index = state.items.firstIndex(where: { $0.id == id }) else { return }
            state.items[index].done.toggle()
        case .edit(let id, let title):
            guard let index = state.items.firstIndex(where: { $0.id == id }), state.items[index].title != title else { return }
            state.items[index].title = title
        case .remove(let id):
            remove(where: { $0.id == id }, from: &state, context: &context)
        case .clearCompleted:
            remove(where: \.done, from: &state, context: &context)
        case .undo:
            guard let undo = state.undo else { return }
            context.cancel(undo.timer)
            for removed in undo.removed { state.items.insert(removed.item, at: min(removed.index, state.items.count)) }
            state.undo = nil
        case .undoExpired:
            state.undo = nil
        }
        context.markChanged()
    }

    public static func snapshot(of state: TodoState, settings: SessionSettings) -> TodoSnapshot {
        let items = state.items.map { item in
            TodoSnapshot.Item(
                id: item.id, title: item.title, done: item.done,
                actions: .init(
                    toggle: ActionDescriptor(TodoIntent.toggle(item: item.id)),
                    edit: ActionDescriptor(prompt: ActionPrompt(title: "Rename", submit: "Rename")) { (title: String) in
                        TodoIntent.edit(item: item.id, title: title)
                    },
                    remove: ActionDescriptor(TodoIntent.remove(item: item.id))))
        }
        let removed = state.undo?.removed.map(\.item.title) ?? []
        return TodoSnapshot(
            items: items, remaining: state.items.count(where: { !$0.done }),
            undoMessage: removed.isEmpty ? nil : "Removed " + removed.map { "“\($0)”" }.joined(separator: ", "),
            actions: .init(
                add: ActionDescriptor(prompt: ActionPrompt(title: "New item", submit: "Add")) { (title: String) in
                    TodoIntent.add(title: title)
                },
                clearCompleted: ActionDescriptor(TodoIntent.clearCompleted, enabled: state.items.contains(where: \.done)),
                undo: ActionDescriptor(TodoIntent.undo, enabled: state.undo != nil)))
    }

    /// Refuses a list read from outside (a journal export) that the intents could not have made: a title past
    /// ``TodoIntent/titleLimit`` or empty, an id past ``TodoIntent/itemLimit``, a numbering out of range.
    public static func validate(state: TodoState) throws(ValueRejection) {
        try ValueRejection.check(state.nextID, in: 1...SessionCore.maxCounter, field: "nextID")
        for (index, item) in state.items.enumerated() { try ValueRejection.inside("items[\(index)]") { try validate(item) } }
        for (index, removed) in (state.undo?.removed ?? []).enumerated() {
            try ValueRejection.inside("undo.removed[\(index)].item") { try validate(removed.item) }
            try ValueRejection.check(removed.index, in: 0...SessionCore.maxCounter, field: "undo.removed[\(index)].index")
        }
    }

    /// Refuses an event the intents could not have made, by the same limits.
    public static func validate(event: TodoEvent) throws(ValueRejection) {
        switch event {
        case .add(let title): try validate(title: title)
        case .toggle(let id), .remove(let id): try ValueRejection.check(id, within: TodoIntent.itemLimit, field: "id")
        case .edit(let id, let title):
            try ValueRejection.check(id, within: TodoIntent.itemLimit, field: "id")
            try validate(title: title)
        case .clearCompleted, .undo, .undoExpired: break
        }
    }

    private static func validate(_ item: TodoState.Item) throws(ValueRejection) {
        try ValueRejection.check(item.id, within: TodoIntent.itemLimit, field: "id")
        try validate(title: item.title)
    }

    private static func validate(title: String) throws(ValueRejection) {
        try ValueRejection.check(title, within: TodoIntent.titleLimit, field: "title")
        guard !title.isEmpty else { throw ValueRejection(field: "title", reason: "must not be empty") }
    }

    /// Removes the items `matching` says, opening (or restarting) the undo window for them.
    private static func remove(
        where matching: (TodoState.Item) -> Bool, from state: inout TodoState, context: inout FeatureContext<TodoApp>
    ) {
        let removed = state.items.enumerated().filter { matching($0.element) }
            .map { TodoState.Removed(item: $0.element, index: $0.offset) }
        state.items.removeAll(where: matching)
        if let previous = state.undo { context.cancel(previous.timer) }
        state.undo = TodoState.Undo(removed: removed, timer: context.schedule(.undoExpired, after: undoWindow))
    }

    /// White space as the title's pattern (`\S`, ECMA-262) counts it, so what the contract calls a title is one.
    private static let whiteSpace = CharacterSet(
        charactersIn: "\t\n\u{0B}\u{0C}\r \u{A0}\u{1680}\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}"
            + "\u{2007}\u{2008}\u{2009}\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}")

    private static func trimmed(_ title: String) throws(IntentRejection) -> String {
        let text = title.trimmingCharacters(in: whiteSpace)
        guard !text.isEmpty else { throw IntentRejection(field: "title", reason: "must not be empty") }
        return text
    }

    private static func allowed(in state: TodoState) -> [TodoIntent.Kind] {
        var kinds: [TodoIntent.Kind] = [.add]
        if !state.items.isEmpty { kinds += [.toggle, .edit, .remove] }
        if state.items.contains(where: \.done) { kinds.append(.clearCompleted) }
        if state.undo != nil { kinds.append(.undo) }
        return kinds
    }
}
