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

    /// The id itself: it names a session and is no secret.
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

    /// `<secret>`, so a secret interpolated into a log line by mistake is not written.
    public var description: String { "<secret>" }
}

/// What a session keeps of its secret: the SHA-256 digest, so neither memory nor a stolen database file holds a
/// usable token. A candidate is checked by comparing digests in time that does not depend on where they differ.
public struct SessionToken: Sendable, Equatable, CustomStringConvertible {
    /// The digest: a SHA-256 kept inside the token as four words (no allocation of its own: every session holds
    /// one), anything else as given.
    private enum Stored: Sendable, Equatable {
        case sha256(UInt64, UInt64, UInt64, UInt64)
        case other([UInt8])
    }

    private let stored: Stored

    /// The SHA-256 of the secret.
    public var digest: [UInt8] {
        switch stored {
        case .sha256: (0..<32).map(byte(at:))
        case .other(let bytes): bytes
        }
    }

    /// The token of `secret`.
    public init(secret: SessionSecret) {
        self.init(digest: Digest.sha256(Array(secret.rawValue.utf8)))
    }

    /// A token with a stored digest.
    public init(digest: [UInt8]) {
        guard digest.count == 32 else {
            stored = .other(digest)
            return
        }
        func word(_ index: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(digest[index * 8 + $1]) << (8 * $1) }
        }
        stored = .sha256(word(0), word(1), word(2), word(3))
    }

    /// The token of a new random secret (tests that never present the secret).
    public static func random() -> SessionToken {
        SessionToken(secret: .random())
    }

    /// Whether `candidate` is the secret this token was made from.
    public func matches(_ candidate: String) -> Bool {
        let given = Digest.sha256(Array(candidate.utf8))
        let count = byteCount
        var difference = UInt8(given.count == count ? 0 : 1)
        for index in 0..<min(given.count, count) { difference |= given[index] ^ byte(at: index) }
        return difference == 0
    }

    /// `<token>`, so a digest interpolated into a log line by mistake is not written.
    public var description: String { "<token>" }

    private var byteCount: Int {
        switch stored {
        case .sha256: 32
        case .other(let bytes): bytes.count
        }
    }

    /// The digest's byte at `index` (below `byteCount`).
    private func byte(at index: Int) -> UInt8 {
        switch stored {
        case .sha256(let first, let second, let third, let fourth):
            let word =
                switch index / 8 {
                case 0: first
                case 1: second
                case 2: third
                default: fourth
                }
            return UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8)))
        case .other(let bytes):
            return bytes[index]
        }
    }
}
