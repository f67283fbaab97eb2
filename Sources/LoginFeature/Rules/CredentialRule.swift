/// The one validity rule the original applies to both fields (seed 002, `usernameValid` / `passwordValid`):
/// a length from 6 to 24, both ends included.
///
/// Length is counted as the original counts it: `NSString.length`, that is UTF-16 code units (quirk kept: the
/// article says 字节 "bytes", but an emoji outside the BMP counts 2 and a CJK character 1, never 3 or 4).
enum CredentialRule {
    /// Why a field is invalid, in the order the original checks it.
    enum Problem: Equatable, Sendable {
        /// Length 0.
        case empty
        /// Length 1 to 5.
        case tooShort
        /// Length over 24.
        case tooLong
    }

    /// The shortest valid length. Exactly 6 is accepted although the message says "more than 6" (quirk kept).
    static let minimumLength = 6
    /// The longest valid length.
    static let maximumLength = 24

    /// The field's length as `NSString.length` counts it: UTF-16 code units.
    static func length(of text: String) -> Int {
        text.utf16.count
    }

    /// Why `text` is invalid, or nil when it is valid.
    static func problem(with text: String) -> Problem? {
        problem(length: length(of: text))
    }

    /// Why a text of `length` is invalid, or nil when it is valid.
    static func problem(length: Int) -> Problem? {
        if length == 0 { return .empty }
        if length < minimumLength { return .tooShort }
        if length > maximumLength { return .tooLong }
        return nil
    }

    /// Whether `text` is valid: `length ≥ 6 && length ≤ 24`.
    static func isValid(_ text: String) -> Bool {
        problem(with: text) == nil
    }

    /// Whether a text of `length` is valid.
    static func isValid(length: Int) -> Bool {
        problem(length: length) == nil
    }
}
