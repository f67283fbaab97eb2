import ViewHostAPI

/// One message bubble (seed 001, `ViewModels/Message/MessageViewModel.swift`), plus the message's id.
public struct MessageViewModel: ViewModel {
    /// Which side the bubble is on.
    public enum Sender: String, Codable, Sendable, CaseIterable {
        /// The user's message, on the right.
        case user
        /// The contact's message, on the left.
        case other
    }

    /// The read mark, with the original's raw values.
    public enum Status: String, Codable, Sendable, CaseIterable {
        /// Not read: "".
        case unread = ""
        /// Read: "✓".
        case read = "✓"
    }

    /// The message's id, such as `m3` (the row identity of ``TableViewDataDifferences``).
    public let id: String
    /// Who sent it.
    public let sentBy: Sender
    /// The text.
    public let message: String
    /// "Sending..." or the send date.
    public let sendStatus: String
    /// "✓" or "".
    public let readStatus: Status
    /// Absent unless the user's message to a person did not arrive: "Not delivered: …" saying why (their chat ended,
    /// or is full).
    public let notDelivered: String?

    /// Creates a bubble.
    public init(
        id: String, sentBy: Sender, message: String, sendStatus: String, readStatus: Status,
        notDelivered: String? = nil
    ) {
        self.id = id
        self.sentBy = sentBy
        self.message = message
        self.sendStatus = sendStatus
        self.readStatus = readStatus
        self.notDelivered = notDelivered
    }
}
