import Foundation
import ViewModelCore

/// One session's chats: the state every screen's view model is built from.
///
/// Mirrors the original (seed 001, `Models/ChatModel.swift`), which was a global `static` store; here it is a value
/// in each session's ``ChatState``. Contacts are looked up through an index instead of a scan once there are more
/// than a few chats (derived from the chats, so it is not stored); a session with few chats, which is most of
/// them, keeps no table and scans.
struct ChatModel: Sendable {
    private(set) var chats: [Chat] = []
    /// Each contact's position in `chats`, kept only while there are more than ``scanLimit`` chats.
    private var indexByContact: [String: Int] = [:]
    private(set) var lastMessageID = 0
    let configuration: ChatConfiguration

    init(configuration: ChatConfiguration) {
        self.configuration = configuration
    }

    /// The most chats the session may have.
    var chatLimit: Int { configuration.maxChats }

    /// Whether one more chat fits under the session's limit.
    var canCreateChat: Bool { chats.count < configuration.maxChats }

    /// A new message with the next session-wide id (`m1`, `m2`, …).
    mutating func makeMessage(sender: Message.Sender, message: String, state: Message.State, sendDate: Date) -> Message
    {
        lastMessageID += 1
        return Message(
            id: MessageID(value: lastMessageID), sender: sender, message: message, state: state, sendDate: sendDate)
    }

    /// Puts the fetched chats in place.
    ///
    /// The original replaced everything (quirk fixed: a chat created before the first fetch answered was lost,
    /// and its screen then failed with "Cannot connect to chat"; such chats now stay, after the fetched ones).
    mutating func load(chats loaded: [Chat]) {
        let loadedContacts = Set(loaded.map(\.contact))
        let kept = chats.filter { !loadedContacts.contains($0.contact) }
        chats = []
        indexByContact = [:]
        for chat in loaded + kept where position(of: chat.contact) == nil { appendChat(chat) }
    }

    /// Appends a new empty chat with `contact` (mirrors the original; callers check for duplicates).
    @discardableResult
    mutating func create(chatWith contact: String) -> Chat {
        let chat = Chat(contact: contact)
        if position(of: contact) == nil { appendChat(chat) }
        return chat
    }

    /// Makes the user's message, state `.sending`, dated `now`, and appends it to the chat with `contact`.
    ///
    /// The original put a message for a missing chat into a throw-away chat, so it was lost (quirk fixed: the
    /// chat is created, as `received` does).
    /// - Returns: The message, or nil when the chat is missing and no chat may be added.
    mutating func create(message text: String, to contact: String, now: Date) -> Message? {
        guard position(of: contact) != nil || canCreateChat else { return nil }
        let message = makeMessage(sender: .user, message: text, state: .sending, sendDate: now)
        append(message, to: contact)
        return message
    }

    /// Moves the user's message from `.sending` to `.sent` (nothing if the history cap dropped it).
    mutating func sent(message: Message, to contact: String) {
        updateChat(contact) { $0.update(message.id) { $0.sent() } }
    }

    /// Appends a message from the other side, creating the chat if it is missing (mirrors the original).
    mutating func received(message: Message, by contact: String) {
        append(message, to: contact)
    }

    /// The other side read the user's message.
    /// - Returns: Whether the message was still there (the history cap may have dropped it).
    @discardableResult
    mutating func read(yourMessage message: Message, reader: String, readDate: Date) -> Bool {
        var found = false
        updateChat(reader) { found = $0.update(message.id) { $0.read(readDate: readDate) } }
        return found
    }

    /// Marks the user's message `id` to `contact` as not arrived.
    /// - Returns: Whether the message was still there.
    @discardableResult
    mutating func undelivered(_ id: MessageID, to contact: String, reason: DeliveryFailure) -> Bool {
        var found = false
        updateChat(contact) { found = $0.update(id) { $0.notDelivered(reason: reason) } }
        return found
    }

    /// The user's messages to `contact` with ids up to `id` that are sent and not read yet, oldest first.
    func sentMessages(to contact: String, upTo id: MessageID) -> [Message] {
        guard let index = position(of: contact) else { return [] }
        return chats[index].messages.filter { message in
            guard case .user = message.sender, message.id <= id, case .sent = message.state else { return false }
            return true
        }
    }

    /// Removes the chat with `contact` (a person's, whose contact was removed) and its messages.
    mutating func removeChat(with contact: String) {
        guard let index = position(of: contact) else { return }
        chats.remove(at: index)
        reindex()
    }

    /// Marks the other person's unread messages in the chat with `contact` read: the original's
    /// `unreadMessages(for:)` followed by `read(others:)`, in one pass from the first unread message.
    /// - Returns: How many were unread.
    mutating func readOthersMessages(by contact: String, readDate: Date) -> Int {
        var count = 0
        updateChat(contact) { count = $0.readOthersMessages(readDate: readDate) }
        return count
    }

    /// Whether a chat with `contact` exists (without copying it).
    func hasChat(with contact: String) -> Bool {
        position(of: contact) != nil
    }

    /// The chat with `contact`, if any.
    func chat(for contact: String) -> Chat? {
        position(of: contact).map { chats[$0] }
    }

    /// The positions of the messages the chat with `contact` holds now (`previousMessages` of the original).
    func window(for contact: String) -> MessageWindow? {
        position(of: contact).map { chats[$0].window }
    }

    /// The user's unread messages over all chats (the app badge).
    func unreadMessageCount() -> Int {
        chats.reduce(0) { $0 + $1.unreadCount }
    }

    /// The user's unread messages in the chat with `contact`.
    func unreadMessageCount(for contact: String) -> Int {
        chat(for: contact)?.unreadCount ?? 0
    }

    private mutating func append(_ message: Message, to contact: String) {
        if position(of: contact) == nil { create(chatWith: contact) }
        let limit = configuration.maxMessagesPerChat
        updateChat(contact) { $0.append(message, keepingAtMost: limit) }
    }

    /// Mutates the chat in place (no copy of its messages).
    private mutating func updateChat(_ contact: String, _ change: (inout Chat) -> Void) {
        guard let index = position(of: contact) else { return }
        change(&chats[index])
    }

    /// Up to this many chats, a contact is found by a scan and no index is kept.
    private static let scanLimit = 8

    /// The position of the chat with `contact` in `chats` (the first, should two name it).
    private func position(of contact: String) -> Int? {
        chats.count <= Self.scanLimit ? chats.firstIndex { $0.contact == contact } : indexByContact[contact]
    }

    /// Appends `chat`, indexing every chat once there are more than ``scanLimit``.
    private mutating func appendChat(_ chat: Chat) {
        chats.append(chat)
        guard chats.count > Self.scanLimit else { return }
        if chats.count == Self.scanLimit + 1 { reindex() } else { indexByContact[chat.contact] = chats.count - 1 }
    }

    /// Builds the index from `chats` (nothing while they are few).
    private mutating func reindex() {
        indexByContact =
            chats.count > Self.scanLimit
            ? Dictionary(chats.enumerated().map { ($1.contact, $0) }, uniquingKeysWith: { first, _ in first }) : [:]
    }
}

extension ChatModel: Equatable {
    static func == (lhs: ChatModel, rhs: ChatModel) -> Bool {
        lhs.chats == rhs.chats && lhs.lastMessageID == rhs.lastMessageID && lhs.configuration == rhs.configuration
    }
}

extension ChatModel: Codable {
    private enum CodingKeys: String, CodingKey {
        case chats, lastMessageID, configuration
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        configuration = try container.decode(ChatConfiguration.self, forKey: .configuration)
        lastMessageID = try container.decode(Int.self, forKey: .lastMessageID)
        chats = try container.decode([Chat].self, forKey: .chats)
        reindex()
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chats, forKey: .chats)
        try container.encode(lastMessageID, forKey: .lastMessageID)
        try container.encode(configuration, forKey: .configuration)
    }
}
