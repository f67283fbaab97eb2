/// What happened to the list of chats: the original's `ChatEvent` (seed 001, `Events/Chat/ChatEvent.swift`), with
/// the repository's case names. The feature produces these itself; clients post ``ChatAppEvent`` intents.
public enum ChatEvent: Sendable, Equatable, Codable {
    /// The chats screen appeared for the first time: start fetching and show the loading list.
    case applicationInitialized
    /// The simulated server answered the fetch (0.5 s later).
    case loaded(chats: [Chat])
    /// Create Chat accepted a contact; the chat exists in the model from now on.
    case creatingChat(contact: String)
    /// The simulated server confirmed the new chat (0.5 s later), or the chat already existed (quirk fixed).
    case created(chat: Chat)
    /// Create Chat refused the contact; the screen shows `reason`.
    case createChatFailed(reason: String)
}
