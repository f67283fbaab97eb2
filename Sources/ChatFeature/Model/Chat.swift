import ChatAPI
import Foundation
import ViewHostAPI
import ViewModelCore

/// One conversation: the contact and the messages, oldest first.
///
/// Mirrors the original (seed 001, `Models/Chat.swift`) as a value. Two additions keep every event O(1): the
/// history is a queue with a moving head, so the cap drops the oldest message without shifting the rest, and the
/// unread count is kept up to date instead of being counted on each read.
public struct Chat: Sendable, Codable {
    let contact: String
    /// Held messages start at `storage[head]`; dead slots before it are reclaimed in bulk.
    private var storage: [Message]
    private var head = 0
    /// The history position of the first held message (how many the cap has dropped).
    private(set) var firstPosition = 0
    /// The other person's messages the user has not read (the chat-list badge).
    private(set) var unreadCount = 0
    /// No unread message sits before this storage index (meaningful while `unreadCount > 0`).
    private var firstUnreadIndex = 0
    /// Whether ids grow along the history, so lookups may binary-search.
    private var idsAscending = true

    /// A chat with `messages`, oldest first.
    init(contact: String, messages: [Message] = []) {
        self.contact = contact
        storage = []
        storage.reserveCapacity(messages.count)
        for message in messages { append(message, keepingAtMost: .max) }
    }

    /// The held messages, oldest first.
    var messages: ArraySlice<Message> { storage[head...] }

    /// The number of held messages.
    var count: Int { storage.count - head }

    /// The newest message, if any.
    var lastMessage: Message? { count > 0 ? storage.last : nil }

    /// The newest message before history position `end` (the closest one still held if the cap dropped it), or nil
    /// when the chat had no messages before `end`.
    func lastMessage(before end: Int) -> Message? {
        guard end > 0, count > 0 else { return nil }
        let position = max(min(end, firstPosition + count) - 1, firstPosition)
        return storage[head + position - firstPosition]
    }

    /// The positions of the held messages.
    var window: MessageWindow { MessageWindow(start: firstPosition, end: firstPosition + count) }

    /// The id at each position of `window`, or nil where that message is no longer held (dropped by the cap).
    func messageIDs(in window: MessageWindow) -> [MessageID?] {
        (window.start..<max(window.start, window.end)).map { position in
            let index = head + position - firstPosition
            return index >= head && index < storage.count ? storage[index].id : nil
        }
    }

    /// Appends `message`, then drops the oldest messages beyond `limit`.
    mutating func append(_ message: Message, keepingAtMost limit: Int) {
        if let last = lastMessage, message.id <= last.id { idsAscending = false }
        if message.isUnreadByUser {
            if unreadCount == 0 { firstUnreadIndex = storage.count }
            unreadCount += 1
        }
        storage.append(message)
        while count > max(1, limit) {
            if storage[head].isUnreadByUser { unreadCount -= 1 }
            head += 1
            firstPosition += 1
        }
        if head >= 64, head * 2 >= storage.count {
            storage.removeSubrange(0..<head)
            firstUnreadIndex = max(0, firstUnreadIndex - head)
            head = 0
        }
    }

    /// Changes the message with `id` in place, keeping the unread count right. A missing id does nothing.
    /// - Returns: Whether the message was there.
    @discardableResult
    mutating func update(_ id: MessageID, _ change: (inout Message) -> Void) -> Bool {
        guard let index = index(of: id) else { return false }
        let wasUnread = storage[index].isUnreadByUser
        change(&storage[index])
        switch (wasUnread, storage[index].isUnreadByUser) {
        case (true, false): unreadCount -= 1
        case (false, true):
            firstUnreadIndex = unreadCount == 0 ? index : min(firstUnreadIndex, index)
            unreadCount += 1
        default: break
        }
        return true
    }

    /// Marks every unread message of the other person read.
    /// - Returns: How many there were.
    mutating func readOthersMessages(readDate: Date) -> Int {
        let unread = unreadCount
        guard unread > 0 else { return 0 }
        for index in max(head, firstUnreadIndex)..<storage.count where storage[index].isUnreadByUser {
            storage[index].read(readDate: readDate)
        }
        unreadCount = 0
        firstUnreadIndex = storage.count
        return unread
    }

    private func index(of id: MessageID) -> Int? {
        guard idsAscending else { return storage[head...].firstIndex { $0.id == id } }
        var low = head
        var high = storage.count
        while low < high {
            let middle = (low + high) / 2
            if storage[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < storage.count && storage[low].id == id ? low : nil
    }
}

extension Chat {
    /// Refuses a chat read from outside (a journal export) that the chat's own code never makes: more messages than
    /// `limit`, ring positions out of place, an unread count that does not count its unread messages, messages
    /// numbered past `lastMessageID`; each message as ``Message/validate(lastMessageID:)`` says.
    func validate(keepingAtMost limit: Int, lastMessageID: Int) throws(ValueRejection) {
        try ValueRejection.check(contact, within: ChatIntent.contactLimit, field: "contact")
        try ValueRejection.check(head, in: 0...storage.count, field: "head")
        try ValueRejection.check(count: count, atMost: limit, field: "messages")
        try ValueRejection.check(firstPosition, in: 0...SessionCore.maxCounter, field: "firstPosition")
        try ValueRejection.check(firstUnreadIndex, in: 0...storage.count, field: "firstUnreadIndex")
        var unread = 0
        var previous: MessageID?
        for index in storage.indices {
            try ValueRejection.inside("storage[\(index)]") { try storage[index].validate(lastMessageID: lastMessageID) }
            guard index >= head else { continue }
            if storage[index].isUnreadByUser {
                unread += 1
                guard index >= firstUnreadIndex else {
                    throw ValueRejection(field: "firstUnreadIndex", reason: "lies after an unread message")
                }
            }
            if idsAscending, let previous, storage[index].id <= previous {
                throw ValueRejection(field: "idsAscending", reason: "is true, but the messages' ids do not ascend")
            }
            previous = storage[index].id
        }
        guard unread == unreadCount else {
            throw ValueRejection(field: "unreadCount", reason: "is \(unreadCount), but \(unread) messages are unread")
        }
    }
}

extension Chat: Equatable {
    /// Chats are equal when contact, history position and messages are.
    public static func == (lhs: Chat, rhs: Chat) -> Bool {
        lhs.contact == rhs.contact && lhs.firstPosition == rhs.firstPosition && lhs.messages == rhs.messages
    }
}
