import ViewHostAPI

/// What a to-do client posts to `POST /v1/sessions/{id}/todo/events`.
///
/// ```json
/// {"type":"add","title":"Milk"}
/// {"type":"toggle","item":"t1"}
/// ```
///
/// (An item is named `item`, never `id`: every event may carry an `id` of its own, which makes a retry safe.)
public enum TodoIntent: FeatureIntent {
    /// Adds an item at the end of the list.
    case add(title: String)
    /// Marks an item done, or not done again.
    case toggle(item: String)
    /// Gives an item another title.
    case edit(item: String, title: String)
    /// Removes an item (it can be brought back with `undo` for a few seconds).
    case remove(item: String)
    /// Removes every done item (they can be brought back with `undo` for a few seconds).
    case clearCompleted
    /// Brings back what the last `remove` or `clearCompleted` took, while its undo window is open.
    case undo

    /// The event types, as clients post them in `type`.
    public enum Kind: String, IntentKind { case add, toggle, edit, remove, clearCompleted, undo }

    public static let feature = TodoSnapshot.feature
    /// An item's title: at most 200 characters.
    public static let titleLimit = TextLimit(characters: 200)
    /// An item's id, such as `t3`.
    public static let itemLimit = TextLimit(characters: 16)

    public var kind: Kind {
        switch self {
        case .add: .add
        case .toggle: .toggle
        case .edit: .edit
        case .remove: .remove
        case .clearCompleted: .clearCompleted
        case .undo: .undo
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: IntentCodingKeys.self)
        func item() throws -> String { try container.string("item", limit: Self.itemLimit, summary: "The item's id, such as t3.") }
        func title() throws -> String {
            try container.string(
                "title", limit: Self.titleLimit, pattern: #"\S"#,
                summary: "The item's title: at least one character that is not white space (it is trimmed).")
        }
        switch try container.kind(Kind.self) {
        case .add: self = .add(title: try title())
        case .toggle: self = .toggle(item: try item())
        case .edit: self = .edit(item: try item(), title: try title())
        case .remove: self = .remove(item: try item())
        case .clearCompleted: self = .clearCompleted
        case .undo: self = .undo
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        switch self {
        case .add(let title): try container.encode(kind: kind, ["title": title])
        case .toggle(let item), .remove(let item): try container.encode(kind: kind, ["item": item])
        case .edit(let item, let title): try container.encode(kind: kind, ["item": item, "title": title])
        case .clearCompleted, .undo: try container.encode(kind: kind)
        }
    }
}
