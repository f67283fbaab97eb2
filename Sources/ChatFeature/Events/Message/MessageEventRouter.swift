import ViewModelCore

/// The one entry point for message events (seed 001, `Events/Message/MessageEventRouter.swift`): model first,
/// then the handler, in the original's order.
final class MessageEventRouter {
    private let model: ChatModel
    private let handler: MessageEventHandler
    private let simulator: ConversationSimulator

    init(model: ChatModel, handler: MessageEventHandler, simulator: ConversationSimulator) {
        self.model = model
        self.handler = handler
        self.simulator = simulator
    }

    func route(_ event: MessageEvent, context: inout FeatureContext<ChatAppEvent>) {
        switch event {
        case .sending(let message, let contact, let previousMessages):
            handler.sending(message: message, to: contact, previousMessages: previousMessages, context: &context)
        case .sent(let message, let contact):
            model.sent(message: message, to: contact)
            context.markChanged()
            handler.sent(message: message, to: contact, context: &context)
            // The original's send closure told the bot right after routing `sent`; the timer delivers `sent`
            // itself here, so the router does that step.
            simulator.sent(message: message, to: contact, context: &context)
        case .failedSending(let message, let contact, let reason):
            handler.failedSending(message: message, to: contact, reason: reason, context: &context)
        case .received(let message, let contact):
            let previousMessages = model.window(for: contact) ?? .empty
            model.received(message: message, by: contact)
            context.markChanged()
            handler.received(message: message, by: contact, previousMessages: previousMessages, context: &context)
        case .userRead(let contact):
            let unreadMessagesShown = model.readOthersMessages(by: contact, readDate: context.now)
            guard unreadMessagesShown > 0 else { return }
            context.markChanged()
            handler.read(messagesBy: contact, context: &context)
        case .otherRead(let yourMessage, let reader):
            if model.read(yourMessage: yourMessage, reader: reader, readDate: context.now) { context.markChanged() }
            handler.read(yourMessage: yourMessage, by: reader, context: &context)
        }
    }
}
