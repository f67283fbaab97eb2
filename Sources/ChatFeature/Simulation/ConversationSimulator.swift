import Foundation
import ViewModelCore

/// The bot's bookkeeping per contact (seed 001, `Stubs/ConversationSimulator.swift`): which contacts have a
/// simulated conversation, how their messages travel, and what the screens' lifecycle does to that.
enum ConversationSimulator {
    /// A chat screen loaded: the contact gets a conversation (once), starting on the web socket.
    static func createdConversation(with contact: String, now: Date, state: inout ChatState) {
        guard state.simulation.conversations[contact] == nil else { return }
        state.simulation.conversations[contact] = SimulatedConversation(with: contact, now: now)
        state.simulation.contactsInOrder.append(contact)
    }

    /// The user's message to `contact` is sent: the bot hears of it (only contacts with a conversation answer).
    static func sent(
        message: Message, to contact: String, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) {
        guard state.simulation.conversations[contact] != nil else { return }
        state.simulation.conversations[contact]?.lastReceivedMessage = context.now
        StubMessageSender.triggerResponses(to: contact, by: message, state: &state, context: &context)
    }

    /// The contact's chat screen is on top again: replies come through the web socket.
    static func enteredChatViewController(ofConversationWith contact: String, state: inout ChatState) {
        state.simulation.conversations[contact]?.state = .webSocket
    }

    /// The contact's chat screen was left: replies come through push.
    static func leftChatViewController(ofConversationWith contact: String, state: inout ChatState) {
        state.simulation.conversations[contact]?.state = .inApp
    }

    /// The app resigned active: every conversation is `.appClosed` and the active ones say goodbye. (The original
    /// called `sendGoodbyes()` once per conversation inside its loop; the first call empties the active list, so
    /// calling it once is the same.)
    static func leftApplication(state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        for contact in state.simulation.contactsInOrder { state.simulation.conversations[contact]?.state = .appClosed }
        StubMessageSender.sendGoodbyes(state: &state, context: &context)
    }

    /// Runs one step of the simulated other side.
    static func handle(_ event: SimulatorEvent, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        switch event {
        case .readReceiptDue(let message, let contact, let startsReplies):
            guard state.simulation.conversations[contact] != nil else { return }
            StubMessageSender.readReceiptDue(
                message: message, of: contact, startsReplies: startsReplies, state: &state, context: &context)
        case .replyDue(let contact, let responsesGiven):
            guard state.simulation.conversations[contact] != nil else { return }
            StubMessageSender.replyDue(in: contact, responsesGiven: responsesGiven, state: &state, context: &context)
        case .pushDelivered(let notification), .goodbyeDue(let notification):
            PushNotificationController.received(notification, state: &state, context: &context)
        }
    }
}
