/// Limits of one session's chat feature, so no client can grow a session without bound.
public struct ChatConfiguration: Sendable, Equatable, Codable {
    /// Contact names are trimmed and cut to this many characters.
    public var maxContactLength: Int
    /// Each chat keeps this many newest messages; older ones are dropped (and leave the chat screen as deletes).
    public var maxMessagesPerChat: Int
    /// Create Chat refuses a new contact beyond this many chats.
    public var maxChats: Int
    /// The `notifications` list keeps this many newest push banners.
    public var maxNotifications: Int
    /// The navigation stack never grows beyond this many screens; pushes beyond it are ignored.
    public var maxScreens: Int

    /// Creates a configuration.
    /// - Parameters:
    ///   - maxContactLength: The longest contact name, in characters.
    ///   - maxMessagesPerChat: The messages each chat keeps.
    ///   - maxChats: The chats a session may have.
    ///   - maxNotifications: The push banners kept.
    ///   - maxScreens: The deepest navigation stack.
    public init(
        maxContactLength: Int = 64, maxMessagesPerChat: Int = 500, maxChats: Int = 200, maxNotifications: Int = 20,
        maxScreens: Int = 32
    ) {
        self.maxContactLength = maxContactLength
        self.maxMessagesPerChat = maxMessagesPerChat
        self.maxChats = maxChats
        self.maxNotifications = maxNotifications
        self.maxScreens = maxScreens
    }
}
