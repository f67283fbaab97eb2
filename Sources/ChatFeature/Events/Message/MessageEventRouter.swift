import ViewModelCore

/// The one entry point for message events (seed 001, `Events/Message/MessageEventRouter.swift`): model first,
/// then the handler, in the original's order.
enum MessageEventRouter {
    static func route(_ event: MessageEvent, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        switch event {
        case .sending(let message, let contact, let previousMessages):
            MessageEventHandler.sending(
                message: message, to: contact, previousMessages: previousMessages, state: &state, context: &context)
        case .sent(let message, let contact):
            state.model.sent(message: message, to: contact)
            context.markChanged()
            MessageEventHandler.sent(message: message, to: contact, state: &state, context: &context)
            // The original's send closure told the bot right after routing `sent`; the timer delivers `sent`
            // itself here, so the router does that step.
            ConversationSimulator.sent(message: message, to: contact, state: &state, context: &context)
        case .failedSending(let message, let contact, let reason):
            MessageEventHandler.failedSending(
                message: message, to: contact, reason: reason, state: &state, context: &context)
        case .received(let message, let contact):
            let previousMessages = state.model.window(for: contact) ?? .empty
            state.model.received(message: message, by: contact)
            context.markChanged()
            MessageEventHandler.received(
                message: message, by: contact, previousMessages: previousMessages, state: &state, context: &context)
        case .userRead(let contact):
            let unreadMessagesShown = state.model.readOthersMessages(by: contact, readDate: context.now)
            guard unreadMessagesShown > 0 else { return }
            context.markChanged()
            PersonCourier.userRead(contact, state: state, context: &context)
            MessageEventHandler.read(messagesBy: contact, state: &state, context: &context)
        case .otherRead(let yourMessage, let reader):
            if state.model.read(yourMessage: yourMessage, reader: reader, readDate: context.now) {
                context.markChanged()
            }
            MessageEventHandler.read(yourMessage: yourMessage, by: reader, state: &state, context: &context)
        }
    }
}
