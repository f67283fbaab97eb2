import ChatAPI
import ViewHostAPI
import ViewModelCore

/// Builds one message bubble (seed 001, `ViewModels/Message/MessageViewModelBuilder.swift`).
enum MessageViewModelBuilder {
    /// The bubble of `message`: "Sending..." while sending, else the send date; "✓" only on the user's own read
    /// messages (quirk fixed: the original also marked the other person's read messages, unlike its MVC twin).
    static func build(for message: Message, dateRenderer: DateRenderer) -> MessageViewModel {
        let sentBy: MessageViewModel.Sender
        if case .user = message.sender { sentBy = .user } else { sentBy = .other }
        let sendStatus: String
        let isRead: Bool
        switch message.state {
        case .sending:
            sendStatus = "Sending..."
            isRead = false
        case .sent:
            sendStatus = dateRenderer.string(from: message.sendDate)
            isRead = false
        case .read:
            sendStatus = dateRenderer.string(from: message.sendDate)
            isRead = true
        case .notDelivered:
            sendStatus = dateRenderer.string(from: message.sendDate)
            isRead = false
        }
        return MessageViewModel(
            id: message.id.description, sentBy: sentBy, message: message.message, sendStatus: sendStatus,
            readStatus: isRead && sentBy == .user ? .read : .unread, notDelivered: notDelivered(message.state))
    }

    /// "Not delivered: …" for a message that did not arrive, saying why; nil for every other.
    static func notDelivered(_ state: Message.State) -> String? {
        guard case .notDelivered(let reason) = state else { return nil }
        return switch reason {
        case .ended: "Not delivered: this contact's chat has ended."
        case .full: "Not delivered: this contact has too many messages waiting; try again later."
        case .unknownAddress: "Not delivered: this contact cannot be reached from here."
        }
    }
}
