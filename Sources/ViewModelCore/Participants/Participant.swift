import Foundation

/// What a participant of a shared session may do (issue 43).
public enum ParticipantRole: String, Sendable, Equatable, CaseIterable {
    /// The session's creator, the only one: invites, removes, deletes the session and exports all of it. It holds the
    /// session's own token and is never stored as a participant.
    case owner
    /// One who joined by an invitation: reads, posts to, streams, exports and leaves the features it was invited to,
    /// and sees nothing else of the session.
    case member
}

/// One who joined a session by a `join` invitation, with a credential of its own (only its digest is kept).
public struct Participant: Sendable, Equatable {
    /// The id of the owner, who is not stored: the session's creator, holding the session's own token.
    public static let ownerID = "owner"
    /// The most characters a participant's name has.
    public static let maxNameCharacters = 64

    /// Its id, unique within its session (not secret: it is part of its token, and listed to the others).
    public let id: String
    /// The session it joined.
    public let session: SessionID
    /// The name it gave itself when it joined.
    public let name: String
    /// What it may do.
    public let role: ParticipantRole
    /// The features of the session it was invited to (the only ones it sees).
    public let features: [String]
    /// The SHA-256 of its secret (the part of its token after the id).
    public let tokenDigest: [UInt8]
    /// When it joined.
    public let joinedAt: Date
    /// When it was removed (it left, or the owner removed it); nil while it takes part. A removed participant's
    /// token answers `401`, on every node.
    public let removedAt: Date?

    /// Creates one.
    public init(
        id: String, session: SessionID, name: String, role: ParticipantRole, features: [String], tokenDigest: [UInt8],
        joinedAt: Date, removedAt: Date? = nil
    ) {
        self.id = id
        self.session = session
        self.name = name
        self.role = role
        self.features = features
        self.tokenDigest = tokenDigest
        self.joinedAt = joinedAt
        self.removedAt = removedAt
    }

    /// Whether `name` is a participant's name: 1 to ``maxNameCharacters`` characters, not only white space, no
    /// control characters.
    public static func isValidName(_ name: String) -> Bool {
        (1...maxNameCharacters).contains(name.count)
            && !name.unicodeScalars.allSatisfy(\.properties.isWhitespace)
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// A participant's token: its id, a dot, then its secret. A session's own token never holds a dot, so the two
    /// kinds cannot be taken for each other.
    public static func token(id: String, secret: SessionSecret) -> String { "\(id).\(secret.rawValue)" }

    /// The participant id and secret in `token`, when it is a participant's token (an id of 1 to 32 letters and
    /// digits, a dot, a secret of 1 to 128 bytes); nil for a session's own token or anything else.
    public static func parseToken(_ token: String) -> (id: String, secret: String)? {
        let bytes = token.utf8
        guard bytes.count <= 161, let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let id = bytes[..<dot]
        let secret = bytes[bytes.index(after: dot)...]
        guard (1...32).contains(id.count), !secret.isEmpty,
            id.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) })
        else { return nil }
        return (String(decoding: id, as: UTF8.self), String(decoding: secret, as: UTF8.self))
    }
}

/// An invitation to join a session as a participant: its code's digest (the code is never kept), the features and
/// role it gives, when it expires and how many uses it has left.
public struct JoinInvitation: Sendable, Equatable {
    /// Its id, for its session to list and withdraw it (not secret).
    public let id: String
    /// The session it joins.
    public let session: SessionID
    /// The features the participant is given.
    public let features: [String]
    /// The role the participant is given (``ParticipantRole/member``: there is one owner).
    public let role: ParticipantRole
    /// The SHA-256 of its code.
    public let digest: [UInt8]
    /// When it was made.
    public let createdAt: Date
    /// When it expires.
    public let expiresAt: Date
    /// How many more participants it may let in.
    public let uses: Int

    /// Creates one.
    public init(
        id: String, session: SessionID, features: [String], role: ParticipantRole, digest: [UInt8], createdAt: Date,
        expiresAt: Date, uses: Int
    ) {
        self.id = id
        self.session = session
        self.features = features
        self.role = role
        self.digest = digest
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.uses = uses
    }
}

/// One joining a session by a code: the code's digest, and the participant made if the code lets it in.
public struct Joining: Sendable, Equatable {
    /// The SHA-256 of the code.
    public let digest: [UInt8]
    /// The new participant's id.
    public let id: String
    /// The name it gives itself.
    public let name: String
    /// The SHA-256 of its new secret.
    public let tokenDigest: [UInt8]
    /// The most participants (not counting the owner, nor those removed) a session may have.
    public let maxParticipants: Int

    /// Creates one.
    public init(digest: [UInt8], id: String, name: String, tokenDigest: [UInt8], maxParticipants: Int) {
        self.digest = digest
        self.id = id
        self.name = name
        self.tokenDigest = tokenDigest
        self.maxParticipants = maxParticipants
    }

    /// The participant this makes by `invitation` at `now`, as every store keeps it.
    package func participant(by invitation: JoinInvitation, at now: Date) -> Participant {
        Participant(
            id: id, session: invitation.session, name: name, role: invitation.role, features: invitation.features,
            tokenDigest: tokenDigest, joinedAt: now)
    }
}

/// What came of joining.
public enum Joined: Sendable, Equatable {
    /// Let in: the invitation used once, the participant kept.
    case joined(Participant)
    /// No join invitation has that code (a contact invitation's code is not one).
    case unknown
    /// The invitation is used up, withdrawn or expired.
    case gone
    /// The session has `limit` participants already.
    case full(limit: Int)
}
