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

    public static let feature = LettersSnapshot.feature
    public static let types = ["write", "block", "unblock"]
    /// A letter's text.
    public static let textLimit = TextLimit(characters: 200)
    /// A contact's name.
    public static let nameLimit = TextLimit(characters: 64)

    public var type: String {
        switch self {
        case .write: "write"
        case .block: "block"
        case .unblock: "unblock"
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: IntentCodingKeys.self)
        switch try container.intentType() {
        case "write":
            self = .write(
                to: try container.string("to", limit: Self.nameLimit), text: try container.string("text", limit: Self.textLimit))
        case "block": self = .block(contact: try container.string("contact", limit: Self.nameLimit))
        case "unblock": self = .unblock(contact: try container.string("contact", limit: Self.nameLimit))
        case let other: throw container.unknownType(other, of: Self.feature)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        switch self {
        case .write(let to, let text): try container.encode(type: type, ["to": to, "text": text])
        case .block(let contact), .unblock(let contact): try container.encode(type: type, ["contact": contact])
        }
    }
}
