import ViewHostCrypto

/// A session's public id: 130 random bits from the system CSPRNG, in base32 (26 characters).
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
    /// The id as it appears in URLs.
    public let rawValue: String

    /// Wraps an id read from a URL.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A new random id.
    public static func random() -> SessionID {
        SessionID(SecureIdentifier.make(bits: 130))
    }

    public var description: String { rawValue }
}

/// A session's secret as its holder has it: 260 random bits from the system CSPRNG, in base32 (52 characters).
/// It is given to the client once, when the session is made; the server keeps only its ``SessionToken`` (digest).
public struct SessionSecret: Sendable, CustomStringConvertible {
    /// The secret as sent in `Authorization: Bearer` or the cookie.
    public let rawValue: String

    /// Wraps a secret.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A new random secret.
    public static func random() -> SessionSecret {
        SessionSecret(SecureIdentifier.make(bits: 260))
    }

    public var description: String { "<secret>" }
}

/// What a session keeps of its secret: the SHA-256 digest, so neither memory nor a stolen database file holds a
/// usable token. A candidate is checked by comparing digests in time that does not depend on where they differ.
public struct SessionToken: Sendable, Equatable, CustomStringConvertible {
    /// The SHA-256 of the secret.
    public let digest: [UInt8]

    /// The token of `secret`.
    public init(secret: SessionSecret) {
        digest = Digest.sha256(Array(secret.rawValue.utf8))
    }

    /// A token with a stored digest.
    public init(digest: [UInt8]) {
        self.digest = digest
    }

    /// The token of a new random secret (tests that never present the secret).
    public static func random() -> SessionToken {
        SessionToken(secret: .random())
    }

    /// Whether `candidate` is the secret this token was made from.
    public func matches(_ candidate: String) -> Bool {
        let given = Digest.sha256(Array(candidate.utf8))
        var difference = UInt8(given.count == digest.count ? 0 : 1)
        for index in 0..<min(given.count, digest.count) { difference |= given[index] ^ digest[index] }
        return difference == 0
    }

    public var description: String { "<token>" }
}
