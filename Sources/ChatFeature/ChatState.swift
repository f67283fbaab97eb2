import ChatAPI
import ViewHostAPI

/// One session's whole chat feature as a value: the model (chats and messages), the navigation stack with what
/// each screen shows, the Chats screen's inputs, the simulated other side and the push banners.
///
/// The original kept these in `static` objects that held each other (model, endpoint, routers, handlers, screens,
/// bot); here they are plain data, and the seed's routers, handlers, endpoint, coordinator and bot are functions
/// over it. The screens listening to the handlers are not stored: they are the screens on ``screens`` (the Chats
/// screen always; every Create Chat screen; the Chat screen on top).
public struct ChatState: Codable, Equatable, Sendable {
    /// The chats and their messages.
    var model: ChatModel
    /// Whether the Chats screen appeared (it routes `applicationInitialized` only the first time).
    var hasAppeared = false
    /// What the Chats screen was last told to show.
    var chatList: ChatListViewModelInputs = .notStarted
    /// The navigation stack, bottom (the Chats screen) first, with what each screen shows.
    var screens = Self.initialScreens
    /// The simulated other side.
    var simulation = SimulationState()
    /// The push banners received.
    var notifications = NotificationState()
    /// The persons (contacts made through invitations) the user chats with; the other chats are the bot's.
    var people = PeopleState()

    /// A new session's chat feature with `configuration`'s limits: the Chats screen, not yet shown.
    public init(configuration: ChatConfiguration = ChatConfiguration()) {
        model = ChatModel(configuration: configuration)
    }

    /// A new session's stack, shared by every new session until it navigates (copy on write).
    private static let initialScreens: [ChatScreenEntry] = [.chatList]

    /// The session's limits.
    var configuration: ChatConfiguration { model.configuration }
}

/// One screen on the navigation stack with what it shows.
enum ChatScreenEntry: Codable, Equatable, Sendable {
    /// The Chats screen (its inputs are ``ChatState/chatList``).
    case chatList
    /// A Create Chat screen and what it was last told to show.
    case createChat(CreateChatViewModelInputs)
    /// A Chat screen.
    case chat(ChatDisplay)

    /// The screen as navigation data.
    var screen: ChatScreen {
        switch self {
        case .chatList: .chatList
        case .createChat: .createChat
        case .chat(let display): .chat(contact: display.contact)
        }
    }
}
