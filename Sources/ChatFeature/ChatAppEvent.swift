/// Everything the chat feature of one session reacts to: client intents (posted as JSON by the app layer) and the
/// internal events it schedules or routes for itself.
///
/// Client intents map to the original's closures and lifecycle calls (seed 001 §1(d)): `itemTapped` is
/// ``openChat(contact:)``, `addChat` ``addChat``, the create closure ``create(contact:)``, the send closure
/// ``send(text:contact:)``, `afterShowingMessages` ``userRead(contact:)``, and the app delegate's calls the
/// `app…` cases. Internal cases are never decoded from clients.
public enum ChatAppEvent: Sendable, Equatable {
    /// The chats screen appeared: routes `applicationInitialized` the first time, nothing later.
    case appear
    /// The "+" button: pushes Create Chat.
    case addChat
    /// Create Chat's button, with the typed contact (pushes Create Chat first if it is not on the stack).
    case create(contact: String)
    /// A chat-list row was tapped: pushes that chat's screen.
    case openChat(contact: String)
    /// The chat screen's Send, to `contact` or, when nil, to the chat screen on top of the stack.
    case send(text: String, contact: String?)
    /// The chat screen showed its messages (`afterShowingMessages`), for `contact` or the chat on top.
    case userRead(contact: String?)
    /// The back button: pops one screen, never the chat list.
    case back
    /// The app resigned active (`applicationWillResignActive`): the bot says goodbye through push.
    case appResignActive
    /// The app became active again; the original does nothing then.
    case appBecomeActive
    /// The user tapped a push notification from `contact`: pushes that chat's screen.
    case notificationTap(contact: String)
    /// A chat-list event the feature routes or schedules itself.
    case chat(ChatEvent)
    /// A message event the feature routes or schedules itself.
    case message(MessageEvent)
    /// A step of the simulated other side.
    case simulator(SimulatorEvent)
}
