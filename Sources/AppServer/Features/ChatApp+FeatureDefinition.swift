import ChatFeature
import ViewModelCore

extension FeatureDefinition {
    /// The chat (seed 001): client events of API.md mapped onto `ChatAppEvent`. A new session's chat list
    /// appears at once (`appear`, as the original's Chats screen routes `applicationInitialized` on load).
    static let chat = FeatureDefinition.define(
        ChatApp.key,
        eventTypes: [
            "appear", "addChat", "create", "openChat", "send", "userRead", "back", "appResignActive",
            "appBecomeActive", "notificationTap",
        ],
        make: { _ in ChatApp() },
        startEvents: [.appear]
    ) { type, fields throws(EventDecodingError) in
        switch type {
        case "appear":
            try fields.onlyFields([])
            return .appear
        case "addChat":
            try fields.onlyFields([])
            return .addChat
        case "create":
            try fields.onlyFields(["contact"])
            return .create(contact: try fields.string("contact", maxLength: 1024))
        case "openChat":
            try fields.onlyFields(["contact"])
            return .openChat(contact: try fields.string("contact", maxLength: 1024))
        case "send":
            try fields.onlyFields(["text", "contact"])
            return .send(
                text: try fields.string("text", maxLength: 4000),
                contact: try fields.optionalString("contact", maxLength: 1024))
        case "userRead":
            try fields.onlyFields(["contact"])
            return .userRead(contact: try fields.optionalString("contact", maxLength: 1024))
        case "back":
            try fields.onlyFields([])
            return .back
        case "appResignActive":
            try fields.onlyFields([])
            return .appResignActive
        case "appBecomeActive":
            try fields.onlyFields([])
            return .appBecomeActive
        default:
            try fields.onlyFields(["contact"])
            return .notificationTap(contact: try fields.string("contact", maxLength: 1024))
        }
    }
}
