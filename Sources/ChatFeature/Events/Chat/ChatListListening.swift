/// A Chats screen that shows what the chat handler tells it (seed 001, `ChatListListening`).
///
/// Contract: the handler calls ``updated(list:)`` with the inputs of the list's next view model; the listener
/// keeps them and builds the view model only when asked. A listener gets nothing when it is added: the screen
/// routes `applicationInitialized` itself.
protocol ChatListListening: AnyObject {
    /// Show the list these inputs describe from now on.
    func updated(list: ChatListViewModelInputs)
}
