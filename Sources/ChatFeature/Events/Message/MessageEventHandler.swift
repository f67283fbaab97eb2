import ViewModelCore

/// Tells the Chat screen on top (and the Chats screen) what to show after each message event (seed 001,
/// `Events/Message/MessageEventHandler.swift`). The app badge needs no update: the snapshot reads it from the
/// model (the original set the icon badge on `received` and `userRead` only, so after loading it still showed 0
/// until then; quirk fixed: it is always the current unread total).
final class MessageEventHandler {
    private let model: ChatModel
    private let chatEventHandler: ChatEventHandler
    private var listeners: [any ChatListening] = []

    init(model: ChatModel, chatEventHandler: ChatEventHandler) {
        self.model = model
        self.chatEventHandler = chatEventHandler
    }

    /// Adds a Chat screen: it gets the first-load view model of its chat (every row an insert), or
    /// `buildFailed(reason: "Cannot connect to chat")` when no chat is its.
    func add(listener: any ChatListening, context: inout FeatureContext<ChatAppEvent>) {
        listeners.append(listener)
        context.markChanged()
        guard model.chats.contains(where: { listener.handles(chatWith: $0.contact) }) else {
            listener.updated(chat: .failed(reason: ChatError.cannotConnect.reason), context: &context)
            return
        }
        listener.updated(
            chat: .chat(isSending: false, isFirstLoad: true, error: nil, previousMessages: .empty), context: &context)
    }

    /// Removes a Chat screen.
    func remove(listener: any ChatListening) {
        listeners.removeAll { $0 === listener }
    }

    /// `received`: refresh the lists; the screen of that contact gets the new message as an insert.
    func received(
        message: Message, by contact: String, previousMessages: MessageWindow,
        context: inout FeatureContext<ChatAppEvent>
    ) {
        chatEventHandler.updateAllChatLists(context: &context)
        guard model.hasChat(with: contact) else { return }
        updateListenersHandlingMessage(for: contact, previousMessages: previousMessages, context: &context)
    }

    /// `sending`: the screen of that contact shows the message with its spinner; only when no screen shows that
    /// contact are the lists refreshed (as in the original).
    func sending(
        message: Message, to contact: String, previousMessages: MessageWindow,
        context: inout FeatureContext<ChatAppEvent>
    ) {
        guard model.hasChat(with: contact) else { return }
        if updateListenersHandlingMessage(
            for: contact, previousMessages: previousMessages, isSending: true, context: &context)
        {
            return
        }
        chatEventHandler.updateAllChatLists(context: &context)
    }

    /// `sent`: the screen stops its spinner (every row an update), and the lists refresh.
    func sent(message: Message, to contact: String, context: inout FeatureContext<ChatAppEvent>) {
        guard model.hasChat(with: contact) else { return }
        updateListenersHandlingMessage(for: contact, context: &context)
        chatEventHandler.updateAllChatLists(context: &context)
    }

    /// `failedSending`: the screen of that contact shows `reason`.
    func failedSending(
        message: Message, to contact: String, reason: String, context: inout FeatureContext<ChatAppEvent>
    ) {
        guard model.hasChat(with: contact) else { return }
        updateListenersHandlingMessage(for: contact, error: reason, context: &context)
    }

    /// `userRead` that read something: the screen, the lists (and the badge) refresh.
    func read(messagesBy contact: String, context: inout FeatureContext<ChatAppEvent>) {
        guard model.hasChat(with: contact) else { return }
        updateListenersHandlingMessage(for: contact, context: &context)
        chatEventHandler.updateAllChatLists(context: &context)
    }

    /// `otherRead`: only the screen of that contact refreshes (the ✓ appears).
    func read(yourMessage: Message, by contact: String, context: inout FeatureContext<ChatAppEvent>) {
        guard model.hasChat(with: contact) else { return }
        updateListenersHandlingMessage(for: contact, context: &context)
    }

    /// Whether a Chat screen shows `contact` now (then a push banner from that contact is hidden).
    func canHandleMessage(for contact: String) -> Bool {
        listeners.contains { $0.handles(chatWith: contact) }
    }

    /// Gives every screen of `contact` the inputs of its next view model; `previousMessages` nil means the
    /// messages as they are now (every row an update).
    /// - Returns: Whether any screen shows `contact`.
    @discardableResult
    private func updateListenersHandlingMessage(
        for contact: String, previousMessages: MessageWindow? = nil, isSending: Bool = false, error: String? = nil,
        context: inout FeatureContext<ChatAppEvent>
    ) -> Bool {
        let handling = listeners.filter { $0.handles(chatWith: contact) }
        guard !handling.isEmpty, let current = model.window(for: contact) else { return false }
        let inputs = ChatViewModelInputs.chat(
            isSending: isSending, isFirstLoad: false, error: error, previousMessages: previousMessages ?? current)
        for listener in handling { listener.updated(chat: inputs, context: &context) }
        context.markChanged()
        return true
    }
}
