/// Who a snapshot is made for: the session's owner, or one of a shared session's members (issue 43). A feature
/// whose snapshot shows each participant something of their own ("your votes left: 2") is a
/// ``ViewerDependentFeature``; every other feature shows every viewer the same snapshot, and is never asked who looks.
///
/// The viewer comes from the credential that reads (the session's own token: the owner; a participant's token: that
/// member), never from a request's body or query, as ``FeatureContext/participant`` names who sent an event.
public struct Viewer: Sendable, Hashable, CustomStringConvertible {
    /// The participant's id: ``Participant/ownerID`` for the owner, else the member's id (the id
    /// ``FeatureContext/participant`` names the events it sends by).
    public let participant: String

    /// The session's owner: the view exports, checkpoints' digests and every reader of a session that is not
    /// shared get.
    public static let owner = Viewer(participant: Participant.ownerID)

    /// The viewer with participant id `participant` (``Participant/ownerID``: the owner).
    public init(participant: String) {
        self.participant = participant
    }

    /// Whether this is the session's owner.
    public var isOwner: Bool { participant == Participant.ownerID }

    /// The participant's id.
    public var description: String { participant }
}
