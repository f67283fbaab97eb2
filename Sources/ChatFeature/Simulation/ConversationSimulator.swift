import Foundation
import ViewModelCore

/// The bot's bookkeeping per contact (seed 001, `Stubs/ConversationSimulator.swift`): which contacts have a
/// simulated conversation, how their messages travel, and what the screens' lifecycle does to that. One per
/// session (the original's was `static`).
final class ConversationSimulator {
    private var conversations: [String: SimulatedConversation] = [:]
    private var contactsInOrder: [String] = []
    private let sender: StubMessageSender
    private let pushController: PushNotificationController

    init(sender: StubMessageSender, pushController: PushNotificationController) {
        self.sender = sender
        self.pushController = pushController
    }

    /// The conversation with `contact`, if its chat screen was ever loaded.
    func conversation(with contact: String) -> SimulatedConversation? {
        conversations[contact]
    }

    /// A chat screen loaded: the contact gets a conversation (once), starting on the web socket.
    func createdConversation(with contact: String, now: Date) {
        guard conversations[contact] == nil else { return }
        conversations[contact] = SimulatedConversation(with: contact, now: now)
        contactsInOrder.append(contact)
    }

    /// The user's message to `contact` is sent: the bot hears of it (only contacts with a conversation answer).
    func sent(message: Message, to contact: String, context: inout FeatureContext<ChatAppEvent>) {
        guard let conversation = conversations[contact] else { return }
        conversation.receivedMessage(now: context.now)
        sender.triggerResponses(in: conversation, by: message, context: &context)
    }

    /// The contact's chat screen is on top again: replies come through the web socket.
    func enteredChatViewController(ofConversationWith contact: String) {
        conversations[contact]?.enteredChatViewController()
    }

    /// The contact's chat screen was left: replies come through push.
    func leftChatViewController(ofConversationWith contact: String) {
        conversations[contact]?.leftChatViewController()
    }

    /// The app resigned active: every conversation is `.appClosed` and the active ones say goodbye. (The original
    /// called `sendGoodbyes()` once per conversation inside its loop; the first call empties the active list, so
    /// calling it once is the same.)
    func leftApplication(context: inout FeatureContext<ChatAppEvent>) {
        for contact in contactsInOrder { conversations[contact]?.leftApp() }
        sender.sendGoodbyes(context: &context)
    }

    /// Runs one step of the simulated other side.
    func handle(_ event: SimulatorEvent, context: inout FeatureContext<ChatAppEvent>) {
        switch event {
        case .readReceiptDue(let message, let contact, let startsReplies):
            guard let conversation = conversations[contact] else { return }
            sender.readReceiptDue(
                message: message, of: conversation, startsReplies: startsReplies, context: &context)
        case .replyDue(let contact, let responsesGiven):
            guard let conversation = conversations[contact] else { return }
            sender.replyDue(in: conversation, responsesGiven: responsesGiven, context: &context)
        case .pushDelivered(let notification), .goodbyeDue(let notification):
            pushController.received(notification, context: &context)
        }
    }
}
