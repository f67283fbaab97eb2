/// The simulated other side's bookkeeping in one session: the conversations (seed 001,
/// `ConversationSimulator`) and the bot's reply sessions and comment pool (`StubMessageSender`). The original's
/// were `static`, shared by every user; here they are part of each session's value.
struct SimulationState: Codable, Equatable, Sendable {
    /// The contacts whose chat screen was ever loaded, by contact.
    var conversations: [String: SimulatedConversation] = [:]
    /// The same contacts in the order their conversations began (the original iterated its list in that order).
    var contactsInOrder: [String] = []
    /// Contacts with a running reply session, in the order they started.
    var activeConversations: [String] = []
    /// The comments not yet used in this round, as positions in ``BotReplies/comments`` (quirk fixed: the
    /// original's pool was `static`, shared by every contact and every user).
    var comments = Self.allComments
    /// Shared by every new session until its bot first speaks (copy on write): one array, not one per session.
    private static let allComments = Array(BotReplies.comments.indices)
    /// The comments used this round, as positions, in the order they were said.
    var usedComments: [Int] = []
}
