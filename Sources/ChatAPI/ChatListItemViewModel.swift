import ViewHostAPI

/// One row of the Chats screen (seed 001, `ViewModels/ChatList/ChatListItemViewModel.swift`).
public struct ChatListItemViewModel: ViewModel {
    /// The closures of the original, as actions.
    public struct Actions: Codable, Equatable, Sendable {
        /// Tapping the row: posts `openChat` with this contact.
        public let itemTapped: ActionDescriptor

        /// Creates the actions.
        public init(itemTapped: ActionDescriptor) {
            self.itemTapped = itemTapped
        }
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

    /// Creates a row.
    public init(contact: String, message: String, lastMessageDate: String, unreadMessageCount: Int, actions: Actions) {
        self.contact = contact
        self.message = message
        self.lastMessageDate = lastMessageDate
        self.unreadMessageCount = unreadMessageCount
        self.actions = actions
    }
}
