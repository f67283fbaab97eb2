import ViewModelCore

/// Tells the Chats and Create Chat screens what to show after each chat event (seed 001,
/// `Events/Chat/ChatEventHandler.swift`), and navigates when a chat was created.
///
/// Handlers record builder inputs only; the view models are built when a snapshot is read.
final class ChatEventHandler {
    private let model: ChatModel
    private let endpoint: ChatEndpoint
    /// Set by the composition root (weak: the navigator holds this handler).
    weak var navigator: ChatNavigator?
    private var chatListListeners: [any ChatListListening] = []
    private var createChatListeners: [any CreateChatListening] = []

    init(model: ChatModel, endpoint: ChatEndpoint) {
        self.model = model
        self.endpoint = endpoint
    }

    /// Adds a Chats screen; it gets nothing until the next list update.
    func add(listener: any ChatListListening) {
        chatListListeners.append(listener)
    }

    /// Adds a Create Chat screen; it gets the idle view model at once.
    func add(listener: any CreateChatListening, context: inout FeatureContext<ChatAppEvent>) {
        createChatListeners.append(listener)
        listener.updated(create: .initial)
        context.markChanged()
    }

    /// Removes a Create Chat screen (the original's weak reference went away with the screen).
    func remove(listener: any CreateChatListening) {
        createChatListeners.removeAll { $0 === listener }
    }

    /// `applicationInitialized`: fetch the chats, show the loading list.
    func started(context: inout FeatureContext<ChatAppEvent>) {
        endpoint.fetchChats(context: &context)
        updateChatLists(.loading, context: &context)
    }

    /// `loaded`: show the chats (the model's, which are the fetched ones plus any created before they came).
    func loaded(chats: [Chat], context: inout FeatureContext<ChatAppEvent>) {
        updateAllChatLists(context: &context)
    }

    /// `creatingChat`: Create Chat shows its spinner and refuses further creates.
    func creatingChat(context: inout FeatureContext<ChatAppEvent>) {
        updateCreateChats(CreateChatViewModelInputs(isSending: true, error: nil), context: &context)
    }

    /// `createChatFailed`: Create Chat shows `reason`.
    func failedCreatingChat(reason: String, context: inout FeatureContext<ChatAppEvent>) {
        updateCreateChats(CreateChatViewModelInputs(isSending: false, error: reason), context: &context)
    }

    /// `created`, in the original's order: Create Chat back to idle, every list refreshed, then the new chat's
    /// screen replaces Create Chat.
    func created(chat: Chat, context: inout FeatureContext<ChatAppEvent>) {
        updateCreateChats(.initial, context: &context)
        updateAllChatLists(context: &context)
        navigator?.navigate(.created(contact: chat.contact), context: &context)
    }

    /// Every Chats screen shows the model's chats as they are now.
    func updateAllChatLists(context: inout FeatureContext<ChatAppEvent>) {
        updateChatLists(.loaded(messageEnds: model.chats.map(\.window.end)), context: &context)
    }

    private func updateChatLists(_ inputs: ChatListViewModelInputs, context: inout FeatureContext<ChatAppEvent>) {
        for listener in chatListListeners { listener.updated(list: inputs) }
        if !chatListListeners.isEmpty { context.markChanged() }
    }

    private func updateCreateChats(_ inputs: CreateChatViewModelInputs, context: inout FeatureContext<ChatAppEvent>) {
        for listener in createChatListeners { listener.updated(create: inputs) }
        if !createChatListeners.isEmpty { context.markChanged() }
    }
}
