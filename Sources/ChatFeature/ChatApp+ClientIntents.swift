import Foundation
import ViewModelCore

/// The original view models' closures, run for the matching client intents.
extension ChatApp {
    /// Create Chat's `create` closure (seed 001, `CreateChatViewModelBuilder.create`).
    ///
    /// Mirrors the original: nothing while a create is on its way; an empty contact is refused with "Please
    /// provide a contact name"; otherwise `creatingChat`. Added here: when Create Chat is not on the stack it is
    /// pushed first, as `addChat` would. Quirks fixed: the contact is trimmed and cut to `maxContactLength` (so
    /// whitespace alone is empty); an existing contact opens that chat (`created` at once, as the MVC twin reuses
    /// it) instead of making a duplicate; beyond `maxChats` the create is refused with a sentence saying so.
    func create(contact raw: String, context: inout FeatureContext<ChatAppEvent>) {
        if navigator.createChat == nil { navigator.navigate(.addChat, context: &context) }
        guard navigator.createChat?.inputs.isSending != true else { return }
        let contact = normalized(raw)
        let event: ChatEvent
        if contact.isEmpty {
            event = .createChatFailed(reason: ChatError.emptyContact.reason)
        } else if let existing = model.chat(for: contact) {
            event = .created(chat: existing)
        } else if !model.canCreateChat {
            event = .createChatFailed(reason: ChatError.tooManyChats(limit: model.chatLimit).reason)
        } else {
            event = .creatingChat(contact: contact)
        }
        context.route(.chat(event), source: context.source)
    }

    /// The Chat screen's `send` closure (`ChatEndpoint.send`), to `contact` or the chat on top.
    ///
    /// With no contact and no chat screen on top there is nothing to send from, so nothing happens (the event is
    /// only logged). A chat screen that could not be opened sends nothing either (its closure was a no-op). The
    /// original's return key sent even while busy (quirk kept: `send` is accepted while `shouldBeBusy`).
    func send(text: String, to contact: String?, context: inout FeatureContext<ChatAppEvent>) {
        if let contact, isExplicit(contact) {
            endpoint.send(message: text, to: normalized(contact), context: &context)
        } else if let top = navigator.topChat, !top.isFailed {
            endpoint.send(message: text, to: top.contact, context: &context)
        }
    }

    /// A chat-list row's `itemTapped` (`ChatListItemViewModelBuilder.show(chat:)`): pushes the chat's screen. An
    /// empty contact names no chat, so nothing happens.
    func openChat(contact: String, context: inout FeatureContext<ChatAppEvent>) {
        guard !contact.isEmpty else { return }
        navigator.navigate(.openChat(contact: contact), context: &context)
    }

    /// A tapped push notification (seed 001, `PushNotificationController.handle(response:)`): that contact's
    /// banners go away and its chat screen is pushed, even if it is already on the stack (quirk kept). Without a
    /// chat the original asserted and did nothing else; so does this.
    func notificationTapped(contact: String, context: inout FeatureContext<ChatAppEvent>) {
        guard !contact.isEmpty else { return }
        pushController.removeNotifications(from: contact, context: &context)
        guard model.hasChat(with: contact) else { return }
        navigator.navigate(.notificationTap(contact: contact), context: &context)
    }

    /// `contact` normalised, or the chat screen on top's when nil or empty.
    func target(_ contact: String?) -> String? {
        isExplicit(contact) ? contact.map(normalized) : navigator.topChat?.contact
    }

    /// Whether `contact` names a contact (not nil, not empty once normalised).
    private func isExplicit(_ contact: String?) -> Bool {
        contact.map { !normalized($0).isEmpty } ?? false
    }

    /// A contact name from a client, trimmed and cut to the configured length.
    func normalized(_ contact: String) -> String {
        ContactName.normalize(contact, maxLength: configuration.maxContactLength)
    }
}
