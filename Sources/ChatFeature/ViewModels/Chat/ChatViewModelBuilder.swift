import ChatAPI
import ViewHostAPI
import ViewModelCore

/// Builds the Chat screen's view model (seed 001, `ViewModels/Chat/ChatViewModelBuilder.swift`).
enum ChatViewModelBuilder {
    /// The screen of `chat`.
    ///
    /// Rules: `shouldAnimateChanges = isFirstLoad` (quirk kept: only the first load animates);
    /// `shouldWipeMessage = shouldBeBusy = isSending`; `shouldShowEmpty` when there are no messages;
    /// `shouldShowError` when `error` is set (quirk fixed: the MVVM view never showed it); the differences run
    /// from `previousMessages` (nil: the current messages) to the current messages; `send` stays enabled while busy
    /// (the Send button shows the spinner, but the return key still sends: quirk kept).
    static func build(
        for chat: Chat, isSending: Bool, isFirstLoad: Bool, error: String? = nil,
        previousMessages: MessageWindow? = nil, dateRenderer: DateRenderer
    ) -> ChatViewModel {
        let current = chat.window
        let newIDs: [MessageID?] = chat.messages.map(\.id)
        let differences = TableViewDataDifferentiator.differentiate(
            oldValues: chat.messageIDs(in: previousMessages ?? current), with: newIDs)
        return ChatViewModel(
            title: chat.contact, contact: chat.contact, shouldAnimateChanges: isFirstLoad,
            shouldWipeMessage: isSending, shouldBeBusy: isSending, shouldShowEmpty: chat.count == 0,
            shouldShowError: error != nil, error: error,
            messages: chat.messages.map { MessageViewModelBuilder.build(for: $0, dateRenderer: dateRenderer) },
            tableViewDifferences: differences,
            actions: ChatViewModel.Actions(
                send: ActionDescriptor(enabled: true) { (text: String) in
                    ChatIntent.send(text: text, contact: chat.contact)
                },
                afterShowingMessages: ActionDescriptor(ChatIntent.userRead(contact: chat.contact))))
    }

    /// The screen of a chat that cannot be shown: only the error, no contact, no messages, and actions that do
    /// nothing (disabled: the original's closures were no-ops).
    static func buildFailed(reason: String) -> ChatViewModel {
        ChatViewModel(
            title: "", contact: "", shouldAnimateChanges: false, shouldWipeMessage: false, shouldBeBusy: false,
            shouldShowEmpty: false, shouldShowError: true, error: reason, messages: [], tableViewDifferences: .empty,
            actions: ChatViewModel.Actions(
                send: ActionDescriptor(enabled: false) { (text: String) in ChatIntent.send(text: text, contact: "") },
                afterShowingMessages: ActionDescriptor(ChatIntent.userRead(contact: ""), enabled: false)))
    }

    /// The view model `inputs` describe for `chat` (failed when the chat is missing).
    static func build(for chat: Chat?, inputs: ChatViewModelInputs, dateRenderer: DateRenderer) -> ChatViewModel {
        switch inputs {
        case .failed(let reason):
            return buildFailed(reason: reason)
        case .chat(let isSending, let isFirstLoad, let error, let previousMessages):
            guard let chat else { return buildFailed(reason: ChatError.cannotConnect.reason) }
            return build(
                for: chat, isSending: isSending, isFirstLoad: isFirstLoad, error: error,
                previousMessages: previousMessages, dateRenderer: dateRenderer)
        }
    }
}
