/// A run of one chat's messages by position in that chat's history (0 is the first message it ever held).
///
/// It stands in for the original's `previousMessages: [Message]` snapshot: recording which messages a screen
/// showed costs two integers instead of a copy of the chat, so an event stays O(1). Positions never move, because
/// messages are only appended at the end and dropped at the start (the history cap).
public struct MessageWindow: Sendable, Equatable, Codable {
    /// The first position in the run.
    let start: Int
    /// One past the last position.
    let end: Int

    /// No messages (a first load, where every row is an insert).
    static let empty = MessageWindow(start: 0, end: 0)

    /// The number of messages in the run.
    var count: Int { end - start }
}
