/// One session's login state: the two fields as typed, and the outcome of the last tap on the button.
///
/// Mirrors the original (seed 002, `LoginViewModel`): the view model holds `username` and `password` as
/// observables and derives validity and the instruction from them; ``LoginViewModelBuilder`` does that
/// derivation here. There is no credential check and no network, as in the original.
struct LoginModel: Equatable, Sendable {
    /// What the last tap on the login button did; cleared by the next edit.
    enum Attempt: Equatable, Sendable {
        /// The button was enabled: the original's success instruction shows.
        case succeeded
        /// The button was disabled: refused here, in the view model.
        case refused
    }

    /// The username as typed.
    private(set) var username: String
    /// The password as typed (never shown in a snapshot).
    private(set) var password: String
    /// The last tap's outcome, or nil when the fields changed since (or nothing was tapped yet).
    private(set) var lastAttempt: Attempt?

    /// The original controller's `initStates`: `maruko` / `1234` (seed 002).
    static let initial = LoginModel(username: "maruko", password: "1234")

    /// A model with these fields and no tap yet.
    init(username: String, password: String, lastAttempt: Attempt? = nil) {
        self.username = username
        self.password = password
        self.lastAttempt = lastAttempt
    }

    /// Whether the login button is enabled: both fields pass ``CredentialRule`` (seed 002, `loginEnabled`).
    var loginEnabled: Bool {
        CredentialRule.isValid(username) && CredentialRule.isValid(password)
    }

    /// The username field changed.
    ///
    /// Mirrors the original's `Observable`: setting an equal value notifies nobody, so the instruction is not
    /// recomputed and a success message stays (quirk kept). A different value recomputes the instruction, so the
    /// success message is overwritten by the next edit (quirk kept).
    mutating func usernameDidChange(_ text: String) {
        guard text != username else { return }
        username = text
        lastAttempt = nil
    }

    /// The password field changed; the same rules as ``usernameDidChange(_:)``.
    mutating func passwordDidChange(_ text: String) {
        guard text != password else { return }
        password = text
        lastAttempt = nil
    }

    /// The login button was tapped.
    ///
    /// The original's `loginTouched` never checked `loginEnabled` (its disabled button did); a server can receive
    /// `login` at any time, so a tap while disabled is refused here (quirk fixed: the view model checks, not only
    /// the button). The original's repeated-`nil` tap quirk (an `Observable` whose old value is nil always
    /// notifies) does not apply on the server: every `login` is an event of its own and is always applied and
    /// logged; one that changes nothing (a second tap) changes no version.
    mutating func loginTouched() {
        lastAttempt = loginEnabled ? .succeeded : .refused
    }
}
