import Foundation
import ViewModelCore

/// The original view models' closures, run for the matching client intents (once ``ChatApp/check(_:in:)`` let
/// them through).
extension ChatApp {
    /// Create Chat's `create` closure (seed 001, `CreateChatViewModelBuilder.create`).
    ///
    /// Mirrors the original: an empty contact is refused with "Please provide a contact name"; otherwise
    /// `creatingChat` (a create while one is on its way is refused before it gets here). Added here: when Create
    /// Chat is not on the stack it is pushed first, as `addChat` would. Quirks fixed: the contact is trimmed and
    /// cut to `maxContactLength` (so whitespace alone is empty); an existing contact opens that chat (`created` at
    /// once, as the MVC twin reuses it) instead of making a duplicate; beyond `maxChats` the create is refused
    /// with a sentence saying so.
    static func create(contact raw: String, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        if ChatNavigator.createChat(in: state) == nil {
            ChatNavigator.navigate(.addChat, state: &state, context: &context)
        }
        let contact = normalized(raw, in: state)
        let event: ChatEvent
        if contact.isEmpty {
            event = .createChatFailed(reason: ChatError.emptyContact.reason)
        } else if let existing = state.model.chat(for: contact) {
            event = .created(chat: existing)
        } else if !state.model.canCreateChat {
            event = .createChatFailed(reason: ChatError.tooManyChats(limit: state.model.chatLimit).reason)
        } else {
            event = .creatingChat(contact: contact)
        }
        context.route(.chat(event), source: context.source)
    }

    /// The Chat screen's `send` closure (`ChatEndpoint.send`), to `contact` or the chat on top.
    static func send(text: String, to contact: String?, state: inout ChatState, context: inout FeatureContext<ChatApp>)
    {
        guard let contact = target(contact, in: state) else { return }
        ChatEndpoint.send(message: text, to: contact, state: &state, context: &context)
    }

    /// A tapped push notification (seed 001, `PushNotificationController.handle(response:)`): that contact's
    /// banners go away and its chat screen is pushed, even if it is already on the stack (quirk kept).
    static func notificationTapped(contact: String, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        PushNotificationController.removeNotifications(from: contact, state: &state, context: &context)
        ChatNavigator.navigate(.notificationTap(contact: contact), state: &state, context: &context)
    }

    /// `contact` normalised, or the chat screen on top's when nil or empty (nil when neither names a contact).
    static func target(_ contact: String?, in state: ChatState) -> String? {
        if let contact, case let name = normalized(contact, in: state), !name.isEmpty { return name }
        return ChatNavigator.topChat(in: state)?.contact
    }

    /// A contact name from a client, trimmed and cut to the configured length.
    static func normalized(_ contact: String, in state: ChatState) -> String {
        ContactName.normalize(contact, maxLength: state.configuration.maxContactLength)
    }
}
