/// What happened on the login screen (seed 002, `LoginViewModel`'s three inputs, under the original's names).
///
/// The app layer maps the client's event types onto these: `setUsername[value]` is ``usernameDidChange(_:)``,
/// `setPassword[value]` is ``passwordDidChange(_:)`` and `login` is ``loginTouched``. The original sent the two
/// edits on every keystroke (`UIControlEventEditingChanged`); a client posts them whenever the field changes.
public enum LoginEvent: Sendable, Equatable {
    /// The username field's text is now the given string.
    case usernameDidChange(String)
    /// The password field's text is now the given string.
    case passwordDidChange(String)
    /// The login button was tapped.
    case loginTouched
}
