import ViewModelCore

/// A person the user made a contact with through an invitation (not a bot): kept by an id (`p1`, `p2`…) with the
/// name they gave, shown in the chat list under ``displayName`` (unique among the chats), and reached at
/// ``address``.
struct PersonContact: Codable, Equatable, Sendable {
    /// `p1`, `p2`…, in the order contacts were made; never reused.
    let id: String
    /// The name the person gave (not verified).
    let name: String
    /// The name the chat list shows and the key of their chat: ``name``, with a suffix such as " (2)" when a bot or
    /// another contact has that name already.
    let displayName: String
    /// Where the user's messages and read receipts go.
    let address: ContactAddress
    /// Whether what they deliver is dropped.
    var blocked = false
    /// The person's own id (their session's `MessageID`) of the newest message received from them: a read receipt
    /// reads every message up to it.
    var lastReceived: MessageID = .none
}
