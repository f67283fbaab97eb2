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

/// A session's secret: 260 random bits from the system CSPRNG, in base32 (52 characters).
public struct SessionToken: Sendable, CustomStringConvertible {
    /// The token as sent in `Authorization: Bearer` or the cookie.
    public let rawValue: String

    /// Wraps a token.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A new random token.
    public static func random() -> SessionToken {
        SessionToken(SecureIdentifier.make(bits: 260))
    }

    /// Compares with `candidate` in time that depends only on the lengths, never on where they differ.
    public func matches(_ candidate: String) -> Bool {
        let expected = Array(rawValue.utf8)
        let given = Array(candidate.utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in 0..<expected.count {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    public var description: String { "<token>" }
}
