import Foundation
import ViewModelCore

/// The simulated chat server (seed 001, `Models/ChatEndpoint.swift`): nothing is real, every call answers after
/// the original's delay through the session's timers.
enum ChatEndpoint {
    /// The contacts the fetch seeds with a bot: a person never gets one of these names (``PersonCourier``).
    static let seededContacts: Set<String> = ["John"]

    /// Answers the fetch after 0.5 s with one chat: John, one message from him, "Hi, you're here too?", state
    /// sent, dated 500 s before the answer (so John starts with one unread message).
    static func fetchChats(state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        let delay = 0.5
        let contact = "John"
        let message = state.model.makeMessage(
            sender: .other(name: contact), message: "Hi, you're here too?", state: .sent,
            sendDate: context.now.addingTimeInterval(delay - 500))
        context.schedule(
            .chat(.loaded(chats: [Chat(contact: contact, messages: [message])])), after: .milliseconds(500),
            source: .timer)
    }

    /// Confirms a new chat after 0.5 s.
    static func create(chat: Chat, context: inout FeatureContext<ChatApp>) {
        context.schedule(.chat(.created(chat: chat)), after: .milliseconds(500), source: .timer)
    }

    /// Sends the user's text to `contact`: the message is appended as `.sending` and `sending` is routed at once;
    /// 1.5 s later `sent` arrives (and the bot hears of it). To a person (``PersonCourier``) it is delivered to their
    /// session instead, and `sent` follows in the same step: no bot, no simulated delay.
    ///
    /// Quirks fixed: an empty or whitespace-only text is refused with `failedSending` and "Enter a message!" (the
    /// MVC twin's check; the MVVM original sent it); a message to a missing chat is refused before it gets here
    /// (``ChatApp/check(_:in:)``), where the original lost it in a throw-away chat.
    static func send(
        message text: String, to contact: String, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) {
        guard !text.isBlank else {
            refuse(text, to: contact, reason: .emptyMessage, context: &context)
            return
        }
        let previousMessages = state.model.window(for: contact) ?? .empty
        guard let message = state.model.create(message: text, to: contact, now: context.now) else {
            refuse(text, to: contact, reason: .tooManyChats(limit: state.model.chatLimit), context: &context)
            return
        }
        context.markChanged()
        context.route(
            .message(.sending(message: message, contact: contact, previousMessages: previousMessages)),
            source: context.source)
        if let person = state.people.contact(named: contact) {
            PersonCourier.send(message, to: person, state: &state, context: &context)
            return
        }
        context.schedule(
            .message(.sent(message: message, contact: contact)), after: .milliseconds(1500), source: .timer)
    }

    private static func refuse(
        _ text: String, to contact: String, reason: ChatError, context: inout FeatureContext<ChatApp>
    ) {
        let message = Message(id: .none, sender: .user, message: text, state: .sending, sendDate: context.now)
        context.route(
            .message(.failedSending(message: message, contact: contact, reason: reason.reason)), source: context.source)
    }
}
