import Foundation

/// One session's chats: the state every screen's view model is built from.
///
/// Mirrors the original (seed 001, `Models/ChatModel.swift`), which was a global `static` store; here each
/// session owns one instance. Contacts are looked up through an index instead of a scan.
final class ChatModel {
    private(set) var chats: [Chat] = []
    private var indexByContact: [String: Int] = [:]
    private var lastMessageID = 0
    private let configuration: ChatConfiguration

    init(configuration: ChatConfiguration) {
        self.configuration = configuration
    }

    /// The most chats the session may have.
    var chatLimit: Int { configuration.maxChats }

    /// Whether one more chat fits under the session's limit.
    var canCreateChat: Bool { chats.count < configuration.maxChats }

    /// A new message with the next session-wide id (`m1`, `m2`, …).
    func makeMessage(sender: Message.Sender, message: String, state: Message.State, sendDate: Date) -> Message {
        lastMessageID += 1
        return Message(
            id: MessageID(value: lastMessageID), sender: sender, message: message, state: state, sendDate: sendDate)
    }

    /// Puts the fetched chats in place.
    ///
    /// The original replaced everything (quirk fixed: a chat created before the first fetch answered was lost,
    /// and its screen then failed with "Cannot connect to chat"; such chats now stay, after the fetched ones).
    func load(chats loaded: [Chat]) {
        let loadedContacts = Set(loaded.map(\.contact))
        let kept = chats.filter { !loadedContacts.contains($0.contact) }
        chats = []
        indexByContact = [:]
        for chat in loaded + kept where indexByContact[chat.contact] == nil {
            indexByContact[chat.contact] = chats.count
            chats.append(chat)
        }
    }

    /// Appends a new empty chat with `contact` (mirrors the original; callers check for duplicates).
    @discardableResult
    func create(chatWith contact: String) -> Chat {
        let chat = Chat(contact: contact)
        if indexByContact[contact] == nil {
            indexByContact[contact] = chats.count
            chats.append(chat)
        }
        return chat
    }

    /// Makes the user's message, state `.sending`, dated `now`, and appends it to the chat with `contact`.
    ///
    /// The original put a message for a missing chat into a throw-away chat, so it was lost (quirk fixed: the
    /// chat is created, as `received` does).
    /// - Returns: The message, or nil when the chat is missing and no chat may be added.
    func create(message text: String, to contact: String, now: Date) -> Message? {
        guard indexByContact[contact] != nil || canCreateChat else { return nil }
        let message = makeMessage(sender: .user, message: text, state: .sending, sendDate: now)
        append(message, to: contact)
        return message
    }

    /// Moves the user's message from `.sending` to `.sent` (nothing if the history cap dropped it).
    func sent(message: Message, to contact: String) {
        updateChat(contact) { $0.update(message.id) { $0.sent() } }
    }

    /// Appends a message from the other side, creating the chat if it is missing (mirrors the original).
    func received(message: Message, by contact: String) {
        append(message, to: contact)
    }

    /// The other side read the user's message.
    /// - Returns: Whether the message was still there (the history cap may have dropped it).
    @discardableResult
    func read(yourMessage message: Message, reader: String, readDate: Date) -> Bool {
        var found = false
        updateChat(reader) { found = $0.update(message.id) { $0.read(readDate: readDate) } }
        return found
    }

    /// Marks the other person's unread messages in the chat with `contact` read: the original's
    /// `unreadMessages(for:)` followed by `read(others:)`, in one pass from the first unread message.
    /// - Returns: How many were unread.
    func readOthersMessages(by contact: String, readDate: Date) -> Int {
        var count = 0
        updateChat(contact) { count = $0.readOthersMessages(readDate: readDate) }
        return count
    }

    /// Whether a chat with `contact` exists (without copying it).
    func hasChat(with contact: String) -> Bool {
        indexByContact[contact] != nil
    }

    /// The chat with `contact`, if any.
    func chat(for contact: String) -> Chat? {
        indexByContact[contact].map { chats[$0] }
    }

    /// The positions of the messages the chat with `contact` holds now (`previousMessages` of the original).
    func window(for contact: String) -> MessageWindow? {
        indexByContact[contact].map { chats[$0].window }
    }

    /// The user's unread messages over all chats (the app badge).
    func unreadMessageCount() -> Int {
        chats.reduce(0) { $0 + $1.unreadCount }
    }

    /// The user's unread messages in the chat with `contact`.
    func unreadMessageCount(for contact: String) -> Int {
        chat(for: contact)?.unreadCount ?? 0
    }

    private func append(_ message: Message, to contact: String) {
        if indexByContact[contact] == nil { create(chatWith: contact) }
        updateChat(contact) { $0.append(message, keepingAtMost: configuration.maxMessagesPerChat) }
    }

    /// Mutates the chat in place (no copy of its messages).
    private func updateChat(_ contact: String, _ change: (inout Chat) -> Void) {
        guard let index = indexByContact[contact] else { return }
        change(&chats[index])
    }
}
