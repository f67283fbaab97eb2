import ChatFeature
import ChatAPI
import ViewHostAPI
import ViewModelCore

extension FeatureDefinition {
    /// The chat (seed 001): client events of API.md decoded as ``ChatIntent``s. A new session's chat list appears
    /// at once (`appear`, as the original's Chats screen routes `applicationInitialized` on load).
    static let chat = FeatureDefinition.define(
        ChatApp.key, eventTypes: ChatIntent.types, initialState: { ChatState() }, startEvents: [.intent(.appear)]
    ) { type, fields throws(EventDecodingError) in
        .intent(try intent(type, fields))
    }

    private static func intent(_ type: String, _ fields: EventFields) throws(EventDecodingError) -> ChatIntent {
        switch type {
        case "create":
            try fields.onlyFields(["contact"])
            return .create(contact: try fields.string("contact", limit: .contact))
        case "openChat":
            try fields.onlyFields(["contact"])
            return .openChat(contact: try fields.string("contact", limit: .contact))
        case "send":
            try fields.onlyFields(["text", "contact"])
            return .send(
                text: try fields.string("text", limit: .message),
                contact: try fields.optionalString("contact", limit: .contact))
        case "userRead":
            try fields.onlyFields(["contact"])
            return .userRead(contact: try fields.optionalString("contact", limit: .contact))
        case "notificationTap":
            try fields.onlyFields(["contact"])
            return .notificationTap(contact: try fields.string("contact", limit: .contact))
        case "addChat": return try fields.none(.addChat)
        case "back": return try fields.none(.back)
        case "appResignActive": return try fields.none(.appResignActive)
        case "appBecomeActive": return try fields.none(.appBecomeActive)
        default: return try fields.none(.appear)
        }
    }
}
