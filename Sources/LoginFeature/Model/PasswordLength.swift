/// A password as the login rules know it: its length in UTF-16 code units (as the original's `NSString.length`
/// counts it, see ``CredentialRule``), never its text. The rules check only the length and the snapshot shows only
/// the length, so that is all the server keeps: not the text, in the session's state, its journal or its log.
///
/// A string literal makes one (`.passwordDidChange("123456")`), so tests and callers read as before.
public struct PasswordLength: Codable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The length in UTF-16 code units.
    public let units: Int

    /// The length of `text`; the text itself is not kept.
    public init(_ text: String) {
        units = CredentialRule.length(of: text)
    }

    /// The length of a literal password, as ``init(_:)`` measures it (for tests and examples).
    public init(stringLiteral text: String) {
        self.init(text)
    }

    init(units: Int) {
        self.units = units
    }

    /// Reads the length, stored as a bare integer.
    public init(from decoder: any Decoder) throws {
        units = try decoder.singleValueContainer().decode(Int.self)
    }

    /// Writes the length as a bare integer: the text is never stored.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(units)
    }
}
