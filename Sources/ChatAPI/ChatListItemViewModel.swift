import ViewHostAPI

/// One row of the Chats screen (seed 001, `ViewModels/ChatList/ChatListItemViewModel.swift`).
public struct ChatListItemViewModel: ViewModel {
    /// The closures of the original, as actions.
    public struct Actions: Codable, Equatable, Sendable {
        /// Tapping the row: posts `openChat` with this contact.
        public let itemTapped: ActionDescriptor
        /// A person's row only: posts `removeContact` (absent on a bot's row).
        public let remove: ActionDescriptor?
        /// A person's row, while not blocked: posts `blockContact`.
        public let block: ActionDescriptor?
        /// A person's row, while blocked: posts `unblockContact`.
        public let unblock: ActionDescriptor?

        /// Creates the actions (a bot's row has only `itemTapped`).
        public init(
            itemTapped: ActionDescriptor, remove: ActionDescriptor? = nil, block: ActionDescriptor? = nil,
            unblock: ActionDescriptor? = nil
        ) {
            self.itemTapped = itemTapped
            self.remove = remove
            self.block = block
            self.unblock = unblock
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
    /// A person's row only (absent on a bot's): the contact's id, such as `p1`, stable while `contact` is the name
    /// the chat list shows (made unique with a suffix such as "Alice (2)").
    public let contactID: String?
    /// A person's row only: the name the person gave.
    public let contactName: String?
    /// A person's row only: whether what they deliver is dropped.
    public let blocked: Bool?

    /// Creates a row (a bot's, when `contactID` is nil).
    public init(
        contact: String, message: String, lastMessageDate: String, unreadMessageCount: Int, actions: Actions,
        contactID: String? = nil, contactName: String? = nil, blocked: Bool? = nil
    ) {
        self.contact = contact
        self.message = message
        self.lastMessageDate = lastMessageDate
        self.unreadMessageCount = unreadMessageCount
        self.actions = actions
        self.contactID = contactID
        self.contactName = contactName
        self.blocked = blocked
    }
}
