import ViewHostAPI

/// What a client of the test feature `letters` posts: a letter to a contact by name, or a contact blocked or
/// unblocked.
///
/// ```json
/// {"type":"write","to":"Bob","text":"Hi"}
/// {"type":"block","contact":"Bob"}
/// ```
public enum LettersIntent: FeatureIntent {
    /// A letter to the contact named `to`.
    case write(to: String, text: String)
    /// Letters from the contact named `contact` are dropped from now on.
    case block(contact: String)
    /// Letters from the contact named `contact` are taken again.
    case unblock(contact: String)

    /// The event types, as clients post them in `type`.
    public enum Kind: String, IntentKind { case write, block, unblock }

    /// `letters`.
    public static let feature = LettersSnapshot.feature
    /// A letter's text.
    public static let textLimit = TextLimit(characters: 200)
    /// A contact's name.
    public static let nameLimit = TextLimit(characters: 64)

    /// The event type.
    public var kind: Kind {
        switch self {
        case .write: .write
        case .block: .block
        case .unblock: .unblock
        }
    }

    /// Reads an intent as a client posts it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: IntentCodingKeys.self)
        switch try container.kind(Kind.self) {
        case .write:
            self = .write(
                to: try container.string("to", limit: Self.nameLimit),
                text: try container.string("text", limit: Self.textLimit))
        case .block: self = .block(contact: try container.string("contact", limit: Self.nameLimit))
        case .unblock: self = .unblock(contact: try container.string("contact", limit: Self.nameLimit))
        }
    }

    /// Writes the intent as a client posts it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        switch self {
        case .write(let to, let text): try container.encode(kind: kind, ["to": to, "text": text])
        case .block(let contact), .unblock(let contact): try container.encode(kind: kind, ["contact": contact])
        }
    }
}
