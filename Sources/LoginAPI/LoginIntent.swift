import ViewHostAPI

/// What a login client posts (API.md "Events", login): the original view model's three inputs (seed 002), sent
/// whenever a field changes and when the button is tapped.
///
/// ```json
/// {"type":"setUsername","value":"maruko"}
/// ```
public enum LoginIntent: FeatureIntent {
    /// The username field's text is now `value` (`usernameDidChange`).
    case setUsername(value: String)
    /// The password field's text is now `value` (`passwordDidChange`).
    case setPassword(value: String)
    /// The login button was tapped (`loginTouched`); refused while the button is disabled.
    case login

    /// `login`.
    public static let feature = LoginSnapshot.feature

    /// A username or password as typed: at most 256 characters.
    public static let valueLimit = TextLimit(characters: 256)

    /// Every event type.
    public enum Kind: String, IntentKind {
        case setUsername, setPassword, login
    }

    /// The intent's kind, which names its `type`.
    public var kind: Kind {
        switch self {
        case .setUsername: .setUsername
        case .setPassword: .setPassword
        case .login: .login
        }
    }

    /// Reads `{"type":…}` and, for the setters, `value` within ``valueLimit``; an unknown type is refused with the
    /// list of ``types``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: IntentCodingKeys.self)
        switch try container.kind(Kind.self) {
        case .setUsername: self = .setUsername(value: try container.string("value", limit: Self.valueLimit))
        case .setPassword: self = .setPassword(value: try container.string("value", limit: Self.valueLimit))
        case .login: self = .login
        }
    }

    /// Writes `type`, and `value` for the setters, as a client posts them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        switch self {
        case .setUsername(let value), .setPassword(let value): try container.encode(kind: kind, ["value": value])
        case .login: try container.encode(kind: kind)
        }
    }
}
