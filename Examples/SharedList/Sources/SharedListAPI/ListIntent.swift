import ViewHostAPI

/// What a participant of the shared list posts to `POST /v1/sessions/{id}/list/events`.
///
/// ```json
/// {"type":"add","text":"Milk"}
/// {"type":"check","item":"i1"}
/// ```
///
/// Who posts it is never in the body: the server knows it from the credential, and the feature reads it from its
/// context. Checking and unchecking are two events, not one toggle, so two people ticking the same item at once
/// agree on the result instead of undoing each other.
public enum ListIntent: FeatureIntent {
    /// Adds an item at the end of the list, attributed to whoever posted it.
    case add(text: String)
    /// Marks an item bought (already bought: no change).
    case check(item: String)
    /// Marks an item not bought again (not bought: no change).
    case uncheck(item: String)
    /// Removes an item, whoever added it (the list is theirs together).
    case remove(item: String)

    /// The event types, as clients post them in `type`.
    public enum Kind: String, IntentKind { case add, check, uncheck, remove }

    public static let feature = ListSnapshot.feature
    /// An item's text: at most 100 characters.
    public static let textLimit = TextLimit(characters: 100)
    /// An item's id, such as `i3`.
    public static let itemLimit = TextLimit(characters: 16)
    /// The most items a list holds: an `add` past it is refused (`409`), saying so.
    public static let maxItems = 100

    public var kind: Kind {
        switch self {
        case .add: .add
        case .check: .check
        case .uncheck: .uncheck
        case .remove: .remove
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: IntentCodingKeys.self)
        func item() throws -> String {
            try container.string("item", limit: Self.itemLimit, summary: "The item's id, such as i3.")
        }
        switch try container.kind(Kind.self) {
        case .add:
            self = .add(
                text: try container.string(
                    "text", limit: Self.textLimit, pattern: #"\S"#,
                    summary: "What to buy: at least one character that is not white space (it is trimmed)."))
        case .check: self = .check(item: try item())
        case .uncheck: self = .uncheck(item: try item())
        case .remove: self = .remove(item: try item())
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        switch self {
        case .add(let text): try container.encode(kind: kind, ["text": text])
        case .check(let item), .uncheck(let item), .remove(let item): try container.encode(kind: kind, ["item": item])
        }
    }
}
