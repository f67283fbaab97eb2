import ViewHostAPI

/// One screen on the navigation stack, as data (seed 000's navigation state applied to seed 001's three screens).
///
/// Encodes as `{"screen":"chatList"}`, `{"screen":"createChat"}` or `{"screen":"chat","contact":"John"}`.
public enum ChatScreen: Hashable, Sendable, Codable {
    /// The Chats screen (always the bottom of the stack).
    case chatList
    /// The Create Chat screen.
    case createChat
    /// The Chat screen of one contact.
    case chat(contact: String)

    private enum CodingKeys: String, CodingKey {
        case screen, contact
    }

    /// Decodes a navigation entry (`{"screen":"chat","contact":"John"}`); an unknown screen is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .screen) {
        case "chatList": self = .chatList
        case "createChat": self = .createChat
        case "chat": self = .chat(contact: try container.decode(String.self, forKey: .contact))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .screen, in: container, debugDescription: "unknown screen '\(other)'")
        }
    }

    /// Encodes the screen as a navigation entry.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .chatList:
            try container.encode("chatList", forKey: .screen)
        case .createChat:
            try container.encode("createChat", forKey: .screen)
        case .chat(let contact):
            try container.encode("chat", forKey: .screen)
            try container.encode(contact, forKey: .contact)
        }
    }
}
