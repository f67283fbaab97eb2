/// A message's identity within its session: `m1`, `m2`, … in the order messages enter chats.
///
/// The original had no ids: its table diff matched messages by equal `sendDate`, so two messages sent in the same
/// second collided (quirk fixed: rows are matched by this id).
public struct MessageID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The sequence number (0 only for ``none``).
    let value: Int

    /// The id of a message that never entered a chat (the text of a refused send).
    static let none = MessageID(value: 0)

    /// The id as the snapshot shows it, such as `m7`.
    public var description: String { "m\(value)" }

    /// Orders ids by creation.
    public static func < (lhs: MessageID, rhs: MessageID) -> Bool {
        lhs.value < rhs.value
    }
}
