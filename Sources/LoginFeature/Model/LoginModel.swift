/// One session's login state: the username as typed, the password's length (never its text: the rules check
/// nothing else, see ``PasswordLength``), and whether the last tap on the button succeeded.
///
/// Mirrors the original (seed 002, `LoginViewModel`): the view model holds `username` and `password` as
/// observables and derives validity and the instruction from them; ``LoginViewModelBuilder`` does that
/// derivation here. There is no credential check and no network, as in the original.
public struct LoginModel: Equatable, Sendable, Codable {
    /// The username as typed.
    private(set) var username: String
    /// The password's length (its text is never kept).
    private(set) var passwordLength: PasswordLength
    /// Whether the button was tapped (while enabled) since the fields last changed: the success message shows.
    private(set) var loginSucceeded = false

    /// The original controller's `initStates`: `maruko` / `1234` (seed 002).
    static let initial = LoginModel(username: "maruko", password: "1234")

    /// A model with these fields and no tap yet.
    init(username: String, password: PasswordLength) {
        self.username = username
        self.passwordLength = password
    }

    /// A model as stored.
    init(username: String, passwordLength: PasswordLength, loginSucceeded: Bool) {
        self.username = username
        self.passwordLength = passwordLength
        self.loginSucceeded = loginSucceeded
    }

    /// Whether the login button is enabled: both fields pass ``CredentialRule`` (seed 002, `loginEnabled`).
    var loginEnabled: Bool {
        CredentialRule.isValid(username) && CredentialRule.isValid(length: passwordLength.units)
    }

    /// The username field changed.
    ///
    /// Mirrors the original's `Observable`: setting an equal value notifies nobody, so the instruction is not
    /// recomputed and a success message stays (quirk kept). A different value recomputes the instruction, so the
    /// success message is overwritten by the next edit (quirk kept).
    mutating func usernameDidChange(_ text: String) {
        guard text != username else { return }
        username = text
        loginSucceeded = false
    }

    /// The password field changed; the same rules as ``usernameDidChange(_:)``, on the length: a new text of the
    /// same length counts as an equal value (quirk adapted: the original compared the text, which the server does
    /// not keep; typing changes the length with every keystroke, so only a pasted text of the same length differs).
    mutating func passwordDidChange(_ length: PasswordLength) {
        guard length != passwordLength else { return }
        passwordLength = length
        loginSucceeded = false
    }

    /// The login button was tapped while enabled (``LoginApp/check(_:in:)`` refuses a tap while disabled). The
    /// original's repeated-`nil` tap quirk (an `Observable` whose old value is nil always notifies) does not apply
    /// on the server: every `login` is an event of its own and is always logged; a second tap changes no version.
    mutating func loginTouched() {
        loginSucceeded = loginEnabled
    }
}
