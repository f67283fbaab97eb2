import ViewModelCore

/// Tells the Chat screen on top (and the Chats screen) what to show after each message event (seed 001,
/// `Events/Message/MessageEventHandler.swift`). The app badge needs no update: the snapshot reads it from the
/// model (the original set the icon badge on `received` and `userRead` only, so after loading it still showed 0
/// until then; quirk fixed: it is always the current unread total).
///
/// The original's listener is the Chat screen on top of the stack: it starts listening when it appears
/// (``add(listenerAt:state:context:)``) and stops when another screen covers it or it is popped.
enum MessageEventHandler {
    /// The Chat screen on top starts listening: it gets the first-load view model of its chat (every row an
    /// insert), or `buildFailed(reason: "Cannot connect to chat")` when no chat is its.
    static func add(listenerAt index: Int, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        guard case .chat(var display) = state.screens[index] else { return }
        context.markChanged()
        if state.model.hasChat(with: display.contact) {
            display.updated(
                chat: .chat(isSending: false, isFirstLoad: true, error: nil, previousMessages: .empty),
                context: &context)
        } else {
            display.updated(chat: .failed(reason: ChatError.cannotConnect.reason), context: &context)
        }
        state.screens[index] = .chat(display)
    }

    /// `received`: refresh the lists; the screen of that contact gets the new message as an insert.
    static func received(
        message: Message, by contact: String, previousMessages: MessageWindow, state: inout ChatState,
        context: inout FeatureContext<ChatApp>
    ) {
        ChatEventHandler.updateAllChatLists(state: &state, context: &context)
        guard state.model.hasChat(with: contact) else { return }
        updateListenersHandlingMessage(
            for: contact, previousMessages: previousMessages, state: &state, context: &context)
    }

    /// `sending`: the screen of that contact shows the message with its spinner; only when no screen shows that
    /// contact are the lists refreshed (as in the original).
    static func sending(
        message: Message, to contact: String, previousMessages: MessageWindow, state: inout ChatState,
        context: inout FeatureContext<ChatApp>
    ) {
        guard state.model.hasChat(with: contact) else { return }
        if updateListenersHandlingMessage(
            for: contact, previousMessages: previousMessages, isSending: true, state: &state, context: &context)
        {
            return
        }
        ChatEventHandler.updateAllChatLists(state: &state, context: &context)
    }

    /// `sent`: the screen stops its spinner (every row an update), and the lists refresh.
    static func sent(
        message: Message, to contact: String, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) {
        guard state.model.hasChat(with: contact) else { return }
        updateListenersHandlingMessage(for: contact, state: &state, context: &context)
        ChatEventHandler.updateAllChatLists(state: &state, context: &context)
    }

    /// `failedSending`: the screen of that contact shows `reason`.
    static func failedSending(
        message: Message, to contact: String, reason: String, state: inout ChatState,
        context: inout FeatureContext<ChatApp>
    ) {
        guard state.model.hasChat(with: contact) else { return }
        updateListenersHandlingMessage(for: contact, error: reason, state: &state, context: &context)
    }

    /// `userRead` that read something: the screen, the lists (and the badge) refresh.
    static func read(messagesBy contact: String, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        guard state.model.hasChat(with: contact) else { return }
        updateListenersHandlingMessage(for: contact, state: &state, context: &context)
        ChatEventHandler.updateAllChatLists(state: &state, context: &context)
    }

    /// `otherRead`: only the screen of that contact refreshes (the ✓ appears).
    static func read(
        yourMessage: Message, by contact: String, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) {
        guard state.model.hasChat(with: contact) else { return }
        updateListenersHandlingMessage(for: contact, state: &state, context: &context)
    }

    /// A message of `contact`'s chat changed state (a person's delivery did not arrive): their screen refreshes.
    static func changed(_ contact: String, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        guard state.model.hasChat(with: contact) else { return }
        updateListenersHandlingMessage(for: contact, state: &state, context: &context)
    }

    /// Whether a Chat screen shows `contact` now (then a push banner from that contact is hidden).
    static func canHandleMessage(for contact: String, in state: ChatState) -> Bool {
        if case .chat(let display) = state.screens.last { return display.contact == contact }
        return false
    }

    /// Gives the screen of `contact`, when it is the one listening, the inputs of its next view model;
    /// `previousMessages` nil means the messages as they are now (every row an update).
    /// - Returns: Whether a screen shows `contact`.
    @discardableResult
    private static func updateListenersHandlingMessage(
        for contact: String, previousMessages: MessageWindow? = nil, isSending: Bool = false, error: String? = nil,
        state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) -> Bool {
        let top = state.screens.count - 1
        guard case .chat(var display) = state.screens[top], display.contact == contact,
            let current = state.model.window(for: contact)
        else { return false }
        let inputs = ChatViewModelInputs.chat(
            isSending: isSending, isFirstLoad: false, error: error, previousMessages: previousMessages ?? current)
        display.updated(chat: inputs, context: &context)
        state.screens[top] = .chat(display)
        context.markChanged()
        return true
    }
}
