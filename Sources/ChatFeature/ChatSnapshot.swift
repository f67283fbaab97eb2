import ViewModelCore

/// The chat feature's whole view-model snapshot for one session (API.md, chat snapshot): the app badge, the
/// navigation stack as data, and the view model of every screen on it. The app layer adds `feature` and
/// `version`, and each action's `method` and `href`.
public struct ChatSnapshot: ViewModel {
    /// Session-level actions.
    public struct Actions: Encodable, Equatable, Sendable {
        /// The back button: posts `back`; disabled when only the chat list is on the stack.
        public let back: ActionDescriptor
    }

    /// The user's unread messages over all chats (the app-icon badge).
    public let badge: Int
    /// The screens on the stack, bottom (the chat list) first.
    public let navigation: [ChatScreen]
    /// The Chats screen, always at the bottom of the stack.
    public let chatList: ChatListViewModel
    /// The Create Chat screen, or null when it is not on the stack.
    public let createChat: CreateChatViewModel?
    /// One view model per contact with a chat screen on the stack (the topmost such screen's).
    public let conversations: [String: ChatViewModel]
    /// The push banners received, oldest first.
    public let notifications: [NotificationViewModel]
    /// Session-level actions.
    public let actions: Actions

    private enum CodingKeys: String, CodingKey {
        case badge, navigation, chatList, createChat, conversations, notifications, actions
    }

    /// Encodes the view model as API.md shows it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(badge, forKey: .badge)
        try container.encode(navigation, forKey: .navigation)
        try container.encode(chatList, forKey: .chatList)
        try container.encode(createChat, forKey: .createChat)  // null, not absent, as API.md shows
        try container.encode(conversations, forKey: .conversations)
        try container.encode(notifications, forKey: .notifications)
        try container.encode(actions, forKey: .actions)
    }
}
