import ChatAPI
import Foundation
import ViewModelCore

/// One chat message: who sent it, its text, its delivery state and its send date.
///
/// Mirrors the original (seed 001, `Models/Message.swift`), as a value instead of a shared mutable object, plus an
/// ``id``: `sent()` only acts from `.sending`; `read(readDate:)` always sets.
public struct Message: Sendable, Equatable, Codable {
    /// Who wrote a message.
    enum Sender: Sendable, Equatable, Codable {
        /// The person using the app.
        case user
        /// The contact on the other side.
        case other(name: String)
    }

    /// Where a message is in its life.
    enum State: Sendable, Equatable, Codable {
        /// The user's message is on its way to the server.
        case sending
        /// The server has it (or it arrived from the other side).
        case sent
        /// Its recipient read it.
        case read(readDate: Date)
        /// The user's message to a person did not arrive (their chat ended or is full).
        case notDelivered(reason: DeliveryFailure)
    }

    let id: MessageID
    let sender: Sender
    /// The text (named as in the original).
    let message: String
    private(set) var state: State
    let sendDate: Date

    /// Whether the user still has to read it: the other person's message, sending or sent.
    ///
    /// Mirrors the original (seed 001, `ChatModel.isUnreadByUser`): anything read and any user message is never
    /// unread.
    var isUnreadByUser: Bool {
        guard case .other = sender else { return false }
        if case .read = state { return false }
        return true
    }

    /// Moves `.sending` to `.sent`; any other state stays.
    mutating func sent() {
        guard case .sending = state else { return }
        state = .sent
    }

    /// Marks the message read at `readDate`, whatever its state.
    mutating func read(readDate: Date) {
        state = .read(readDate: readDate)
    }

    /// Marks the user's message as not arrived, for `reason`.
    mutating func notDelivered(reason: DeliveryFailure) {
        state = .notDelivered(reason: reason)
    }
}

extension Message {
    /// Refuses a message read from outside that the chat never makes: an id outside 0 to `lastMessageID`, a text
    /// past ``ChatIntent/messageLimit``, a sender's name past ``ChatIntent/contactLimit``, an instant outside the
    /// years 1 to 9999.
    func validate(lastMessageID: Int) throws(ValueRejection) {
        try ValueRejection.check(id.value, in: 0...max(0, lastMessageID), field: "id")
        try ValueRejection.check(message, within: ChatIntent.messageLimit, field: "message")
        if case .other(let name) = sender {
            try ValueRejection.check(name, within: ChatIntent.contactLimit, field: "sender")
        }
        try ValueRejection.check(sendDate, field: "sendDate")
        if case .read(let readDate) = state { try ValueRejection.check(readDate, field: "state.readDate") }
    }
}
