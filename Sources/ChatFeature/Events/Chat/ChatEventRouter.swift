import ViewModelCore

/// The one entry point for chat events (seed 001, `Events/Chat/ChatEventRouter.swift`): model first, then the
/// endpoint, then the handler, in the original's order.
final class ChatEventRouter {
    private let model: ChatModel
    private let endpoint: ChatEndpoint
    private let handler: ChatEventHandler

    init(model: ChatModel, endpoint: ChatEndpoint, handler: ChatEventHandler) {
        self.model = model
        self.endpoint = endpoint
        self.handler = handler
    }

    func route(_ event: ChatEvent, context: inout FeatureContext<ChatAppEvent>) {
        switch event {
        case .applicationInitialized:
            handler.started(context: &context)
        case .loaded(let chats):
            // The original's fetch closure loaded the model right before routing `loaded`; the timer delivers
            // `loaded` itself here, so the router does that step.
            model.load(chats: chats)
            context.markChanged()
            handler.loaded(chats: chats, context: &context)
        case .creatingChat(let contact):
            let chat = model.create(chatWith: contact)
            context.markChanged()
            endpoint.create(chat: chat, context: &context)
            handler.creatingChat(context: &context)
        case .created(let chat):
            handler.created(chat: chat, context: &context)
        case .createChatFailed(let reason):
            handler.failedCreatingChat(reason: reason, context: &context)
        }
    }
}
