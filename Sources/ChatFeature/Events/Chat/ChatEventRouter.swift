import ViewModelCore

/// The one entry point for chat events (seed 001, `Events/Chat/ChatEventRouter.swift`): model first, then the
/// endpoint, then the handler, in the original's order.
enum ChatEventRouter {
    static func route(_ event: ChatEvent, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        switch event {
        case .applicationInitialized:
            ChatEventHandler.started(state: &state, context: &context)
        case .loaded(let chats):
            // The original's fetch closure loaded the model right before routing `loaded`; the timer delivers
            // `loaded` itself here, so the router does that step.
            state.model.load(chats: chats)
            context.markChanged()
            ChatEventHandler.loaded(chats: chats, state: &state, context: &context)
        case .creatingChat(let contact):
            let chat = state.model.create(chatWith: contact)
            context.markChanged()
            ChatEndpoint.create(chat: chat, context: &context)
            ChatEventHandler.creatingChat(state: &state, context: &context)
        case .created(let chat):
            ChatEventHandler.created(chat: chat, state: &state, context: &context)
        case .createChatFailed(let reason):
            ChatEventHandler.failedCreatingChat(reason: reason, state: &state, context: &context)
        }
    }
}
