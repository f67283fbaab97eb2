import ViewModelCore

/// A Chat screen that shows what the message handler tells it (seed 001, `ChatListening`).
///
/// Contract: only the chat screen on top of the stack is a listener (the original adds it in `viewWillAppear`
/// and removes it in `viewWillDisappear`). It gets a first-load view model (every row an insert) as soon as it is
/// added, or a failed one when its chat does not exist. Whenever it gets a chat view model it reacts as the
/// original view does: `afterShowingMessages()`, which routes `userRead` for its contact.
protocol ChatListening: AnyObject {
    /// Show the chat these inputs describe from now on.
    func updated(chat: ChatViewModelInputs, context: inout FeatureContext<ChatAppEvent>)
    /// Whether this screen shows the chat with `contact`.
    func handles(chatWith contact: String) -> Bool
}
