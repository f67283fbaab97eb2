import ViewModelCore

/// The Chats screen (seed 001, `ViewModels/ChatList/ChatListViewModel.swift`), with its fixed texts from
/// `ChatsViewController` and the `addChat` closure as an action.
public struct ChatListViewModel: ViewModel {
    /// The closures of the original, as actions.
    public struct Actions: Encodable, Equatable, Sendable {
        /// The "+" button: posts `addChat`.
        public let addChat: ActionDescriptor
    }

    /// The screen title, "Chats".
    public let title = "Chats"
    /// Whether the spinner shows (while the first fetch runs).
    public let showSpinner: Bool
    /// Whether the empty text is hidden.
    public let hideEmptyMessage: Bool
    /// Whether the list of chats is hidden.
    public let hideChats: Bool
    /// The text shown when there are no chats.
    public let emptyMessage = "You don't have any conversations yet!"
    /// One row per chat, in model order (append order, no sorting).
    public let chats: [ChatListItemViewModel]
    /// What the screen can post.
    public let actions: Actions
}
