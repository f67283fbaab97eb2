/// What happened on the login screen (seed 002, `LoginViewModel`'s three inputs, under the original's names).
///
/// ``LoginApp/event(for:)`` maps the client's intents onto these: `setUsername[value]` is ``usernameDidChange(_:)``,
/// `setPassword[value]` is ``passwordDidChange(_:)`` and `login` is ``loginTouched``. The original sent the two
/// edits on every keystroke (`UIControlEventEditingChanged`); a client posts them whenever the field changes.
public enum LoginEvent: Sendable, Equatable, Codable {
    /// The username field's text is now the given string.
    case usernameDidChange(String)
    /// The password field's text changed; only its length is kept (the rules check nothing else).
    case passwordDidChange(PasswordLength)
    /// The login button was tapped.
    case loginTouched
}
