import ViewHostAPI

/// The Chats screen (seed 001, `ViewModels/ChatList/ChatListViewModel.swift`), with its fixed texts from
/// `ChatsViewController` and the `addChat` closure as an action.
public struct ChatListViewModel: ViewModel {
    /// The closures of the original, as actions.
    public struct Actions: Codable, Equatable, Sendable {
        /// The "+" button: posts `addChat`.
        public let addChat: ActionDescriptor
        /// Invites a person: creates a contact invitation for the chat (`"target":"invitations"`, its `{name}` the
        /// name the other will see), whose code the person sends by any means. Absent from snapshots of releases
        /// before persons.
        public let invite: ActionDescriptor?

        /// Creates the actions.
        public init(addChat: ActionDescriptor, invite: ActionDescriptor? = nil) {
            self.addChat = addChat
            self.invite = invite
        }
    }

    /// The screen title, "Chats".
    public let title: String
    /// Whether the spinner shows (while the first fetch runs).
    public let showSpinner: Bool
    /// Whether the empty text is hidden.
    public let hideEmptyMessage: Bool
    /// Whether the list of chats is hidden.
    public let hideChats: Bool
    /// The text shown when there are no chats.
    public let emptyMessage: String
    /// One row per chat, in model order (append order, no sorting).
    public let chats: [ChatListItemViewModel]
    /// What the screen can post.
    public let actions: Actions

    /// Creates a view model with the original's texts.
    public init(
        title: String = "Chats", showSpinner: Bool, hideEmptyMessage: Bool, hideChats: Bool,
        emptyMessage: String = "You don't have any conversations yet!", chats: [ChatListItemViewModel],
        actions: Actions
    ) {
        self.title = title
        self.showSpinner = showSpinner
        self.hideEmptyMessage = hideEmptyMessage
        self.hideChats = hideChats
        self.emptyMessage = emptyMessage
        self.chats = chats
        self.actions = actions
    }
}
