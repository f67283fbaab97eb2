import ViewModelCore

/// One row of the Chats screen (seed 001, `ViewModels/ChatList/ChatListItemViewModel.swift`).
public struct ChatListItemViewModel: ViewModel {
    /// The closures of the original, as actions.
    public struct Actions: Encodable, Equatable, Sendable {
        /// Tapping the row: posts `openChat` with this contact.
        public let itemTapped: ActionDescriptor
    }

    /// The contact's name.
    public let contact: String
    /// The last message's text, or "".
    public let message: String
    /// The last message's send date (`dd-MM-yyyy HH:mm`), or "".
    public let lastMessageDate: String
    /// How many of the contact's messages the user has not read (the red counter, hidden when ≤ 0).
    public let unreadMessageCount: Int
    /// What the row can post.
    public let actions: Actions
}
