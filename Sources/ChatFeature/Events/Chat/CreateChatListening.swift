/// A Create Chat screen that shows what the chat handler tells it (seed 001, `CreateChatListening`).
///
/// Contract: the listener gets ``CreateChatViewModelInputs/initial`` as soon as it is added, then every change.
protocol CreateChatListening: AnyObject {
    /// Show the screen these inputs describe from now on.
    func updated(create: CreateChatViewModelInputs)
}
