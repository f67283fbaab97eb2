/// What the Chats screen was last told to show: the inputs of ``ChatListViewModelBuilder``, recorded by the
/// handlers and turned into a view model only when a snapshot is read.
enum ChatListViewModelInputs: Equatable, Sendable, Codable {
    /// The screen has not appeared yet; it shows the loading view model (it has no other).
    case notStarted
    /// `buildLoading()`: the first fetch runs.
    case loading
    /// `build(for:)` over the model's chats as they were when the list was last refreshed: `messageEnds` holds,
    /// per chat in model order, the history position its messages reached then. Chats appended since (Create Chat
    /// appends one before the server confirms it) and messages appended since (`sending` to an open chat does not
    /// refresh the list) wait for the next refresh, as in the original. Recording it costs one integer per chat.
    case loaded(messageEnds: [Int])
}
