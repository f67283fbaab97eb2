import ViewHostAPI

/// What a chat client posts (API.md "Events", chat): the original's closures and app-delegate calls (seed 001
/// §1(d)) as events. `itemTapped` is ``openChat(contact:)``, `addChat` ``addChat``, the create closure
/// ``create(contact:)``, the send closure ``send(text:contact:)``, `afterShowingMessages` ``userRead(contact:)``.
///
/// ```json
/// {"type":"send","text":"Hi","contact":"John"}
/// ```
public enum ChatIntent: FeatureIntent {
    /// The chats screen appeared: routes `applicationInitialized` the first time, nothing later.
    case appear
    /// The "+" button: pushes Create Chat.
    case addChat
    /// Create Chat's button, with the typed contact (pushes Create Chat first if it is not on the stack).
    case create(contact: String)
    /// A chat-list row was tapped: pushes that chat's screen.
    case openChat(contact: String)
    /// The chat screen's Send, to `contact` or, when nil, to the chat screen on top of the stack.
    case send(text: String, contact: String? = nil)
    /// The chat screen showed its messages (`afterShowingMessages`), for `contact` or the chat on top.
    case userRead(contact: String? = nil)
    /// The back button: pops one screen, never the chat list.
    case back
    /// The app resigned active (`applicationWillResignActive`): the bot says goodbye through push.
    case appResignActive
    /// The app became active again; the original does nothing then.
    case appBecomeActive
    /// The user tapped a push notification from `contact`: pushes that chat's screen.
    case notificationTap(contact: String)
    /// Removes the person `contact` (a contact made through an invitation, by the name the chat list shows), with
    /// their chat; what they deliver later is dropped.
    case removeContact(contact: String)
    /// Drops what the person `contact` delivers from now on, silently (they see "sent", never "read").
    case blockContact(contact: String)
    /// Takes what the person `contact` delivers again.
    case unblockContact(contact: String)

    /// `chat`.
    public static let feature = ChatSnapshot.feature

    /// A contact's name: at most 1,024 characters.
    public static let contactLimit = TextLimit(characters: 1024)
    /// A message's text: at most 4,000 characters.
    public static let messageLimit = TextLimit(characters: 4000)

    /// Every event type, in API.md's order.
    public enum Kind: String, IntentKind {
        case appear, addChat, create, openChat, send, userRead, back, appResignActive, appBecomeActive, notificationTap
        case removeContact, blockContact, unblockContact
    }

    /// The intent's kind, which names its `type`.
    public var kind: Kind {
        switch self {
        case .appear: .appear
        case .addChat: .addChat
        case .create: .create
        case .openChat: .openChat
        case .send: .send
        case .userRead: .userRead
        case .back: .back
        case .appResignActive: .appResignActive
        case .appBecomeActive: .appBecomeActive
        case .notificationTap: .notificationTap
        case .removeContact: .removeContact
        case .blockContact: .blockContact
        case .unblockContact: .unblockContact
        }
    }

    /// Reads `{"type":…}` and the fields of that type, each within its limit; an unknown type is refused with the list
    /// of ``types``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: IntentCodingKeys.self)
        switch try container.kind(Kind.self) {
        case .appear: self = .appear
        case .addChat: self = .addChat
        case .create: self = .create(contact: try container.string("contact", limit: Self.contactLimit))
        case .openChat: self = .openChat(contact: try container.string("contact", limit: Self.contactLimit))
        case .send:
            self = .send(
                text: try container.string("text", limit: Self.messageLimit),
                contact: try container.optionalString("contact", limit: Self.contactLimit))
        case .userRead: self = .userRead(contact: try container.optionalString("contact", limit: Self.contactLimit))
        case .back: self = .back
        case .appResignActive: self = .appResignActive
        case .appBecomeActive: self = .appBecomeActive
        case .notificationTap:
            self = .notificationTap(contact: try container.string("contact", limit: Self.contactLimit))
        case .removeContact: self = .removeContact(contact: try container.string("contact", limit: Self.contactLimit))
        case .blockContact: self = .blockContact(contact: try container.string("contact", limit: Self.contactLimit))
        case .unblockContact:
            self = .unblockContact(contact: try container.string("contact", limit: Self.contactLimit))
        }
    }

    /// Writes `type` and the intent's fields, as a client posts them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        switch self {
        case .create(let contact), .openChat(let contact), .notificationTap(let contact), .removeContact(let contact),
            .blockContact(let contact), .unblockContact(let contact):
            try container.encode(kind: kind, ["contact": contact])
        case .send(let text, let contact):
            try container.encode(kind: kind, ["text": text, "contact": contact])
        case .userRead(let contact):
            try container.encode(kind: kind, ["contact": contact])
        case .appear, .addChat, .back, .appResignActive, .appBecomeActive:
            try container.encode(kind: kind)
        }
    }
}
