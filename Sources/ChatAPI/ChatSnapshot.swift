import ViewHostAPI

/// The chat feature's whole view-model snapshot for one session (API.md, chat snapshot): the app badge, the
/// navigation stack as data, and the view model of every screen on it.
public struct ChatSnapshot: FeatureSnapshot {
    /// Session-level actions.
    public struct Actions: Codable, Equatable, Sendable {
        /// The back button: posts `back`; disabled when only the chat list is on the stack.
        public let back: ActionDescriptor

        /// Creates the actions.
        public init(back: ActionDescriptor) {
            self.back = back
        }
    }

    /// `chat`.
    public static let feature = "chat"

    /// The user's unread messages over all chats (the app-icon badge).
    public let badge: Int
    /// The screens on the stack, bottom (the chat list) first.
    public let navigation: [ChatScreen]
    /// The Chats screen, always at the bottom of the stack.
    public let chatList: ChatListViewModel
    /// The Create Chat screen, or null when it is not on the stack.
    @Nullable public private(set) var createChat: CreateChatViewModel?
    /// One view model per contact with a chat screen on the stack (the topmost such screen's).
    public let conversations: [String: ChatViewModel]
    /// The push banners received, oldest first.
    public let notifications: [NotificationViewModel]
    /// Session-level actions.
    public let actions: Actions

    /// Creates a snapshot.
    public init(
        badge: Int, navigation: [ChatScreen], chatList: ChatListViewModel, createChat: CreateChatViewModel?,
        conversations: [String: ChatViewModel], notifications: [NotificationViewModel], actions: Actions
    ) {
        self.badge = badge
        self.navigation = navigation
        self.chatList = chatList
        self.createChat = createChat
        self.conversations = conversations
        self.notifications = notifications
        self.actions = actions
    }
}

extension ChatSnapshot {
    /// The screens on the stack, the number of chats and the badge: `chatList > chat(John); 1 chat; badge 0`.
    public var summaryLine: String {
        let screens = navigation.map { screen -> String in
            switch screen {
            case .chatList: "chatList"
            case .createChat: "createChat"
            case .chat(let contact): "chat(\(contact))"
            }
        }
        let chats = chatList.chats.count
        return "\(screens.joined(separator: " > ")); \(chats) chat\(chats == 1 ? "" : "s"); badge \(badge)"
    }
}
