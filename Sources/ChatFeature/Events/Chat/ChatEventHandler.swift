import ViewModelCore

/// Tells the Chats and Create Chat screens what to show after each chat event (seed 001,
/// `Events/Chat/ChatEventHandler.swift`), and navigates when a chat was created.
///
/// The original's listeners are the screens on the stack: the Chats screen (always there, always listening) and
/// every Create Chat screen (listening from the moment it loads, when it gets the idle view model). Handlers
/// record builder inputs only; the view models are built when a snapshot is read.
enum ChatEventHandler {
    /// `applicationInitialized`: fetch the chats, show the loading list.
    static func started(state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        ChatEndpoint.fetchChats(state: &state, context: &context)
        updateChatLists(.loading, state: &state, context: &context)
    }

    /// `loaded`: show the chats (the model's, which are the fetched ones plus any created before they came).
    static func loaded(chats: [Chat], state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        updateAllChatLists(state: &state, context: &context)
    }

    /// `creatingChat`: Create Chat shows its spinner and refuses further creates.
    static func creatingChat(state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        updateCreateChats(CreateChatViewModelInputs(isSending: true, error: nil), state: &state, context: &context)
    }

    /// `createChatFailed`: Create Chat shows `reason`.
    static func failedCreatingChat(reason: String, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        updateCreateChats(CreateChatViewModelInputs(isSending: false, error: reason), state: &state, context: &context)
    }

    /// `created`, in the original's order: Create Chat back to idle, every list refreshed, then the new chat's
    /// screen replaces Create Chat.
    static func created(chat: Chat, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        updateCreateChats(.initial, state: &state, context: &context)
        updateAllChatLists(state: &state, context: &context)
        ChatNavigator.navigate(.created(contact: chat.contact), state: &state, context: &context)
    }

    /// The Chats screen shows the model's chats as they are now.
    static func updateAllChatLists(state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        updateChatLists(.loaded(messageEnds: state.model.chats.map(\.window.end)), state: &state, context: &context)
    }

    private static func updateChatLists(
        _ inputs: ChatListViewModelInputs, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) {
        state.chatList = inputs
        context.markChanged()
    }

    /// Every Create Chat screen on the stack shows `inputs`.
    private static func updateCreateChats(
        _ inputs: CreateChatViewModelInputs, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) {
        var listening = false
        for index in state.screens.indices {
            guard case .createChat = state.screens[index] else { continue }
            state.screens[index] = .createChat(inputs)
            listening = true
        }
        if listening { context.markChanged() }
    }
}
