/// What the instruction line under the form says, as a stable key (`instructionKey` in the snapshot) that a client
/// may use to pick its own text; the snapshot's `instruction` carries the session locale's text.
///
/// Mirrors the original (seed 002, `instruction`): the first failing rule in the order of the cases below (the
/// username wins over the password), the success message after a tap on the enabled button, and nothing (key
/// `null`, text `""`) when both fields are valid.
public enum LoginInstruction: String, Sendable, Equatable, CaseIterable, Encodable {
    /// ① The username is empty.
    case usernameEmpty = "username.empty"
    /// ② The username is shorter than 6 (quirk kept: exactly 6 is accepted although the text says "more than 6").
    case usernameTooShort = "username.tooShort"
    /// ③ The username is longer than 24.
    case usernameTooLong = "username.tooLong"
    /// ④ The password is empty.
    case passwordEmpty = "password.empty"
    /// ⑤ The password is shorter than 6 (quirk kept, as for the username).
    case passwordTooShort = "password.tooShort"
    /// ⑥ The password is longer than 24.
    case passwordTooLong = "password.tooLong"
    /// The enabled button was tapped: "Login succeeded (*^▽^*)", until the next edit (quirk kept).
    case loginSucceeded = "login.succeeded"
    /// The button was tapped while disabled: refused in the view model. The text is the first failing rule's,
    /// which says why; this key tells the client that a login was refused. Also cleared by the next edit.
    case loginRefused = "login.refused"

    /// The first failing rule for these fields, username first, or nil when both are valid (seed 002, ①–⑥).
    static func firstFailingRule(username: String, password: String) -> LoginInstruction? {
        switch CredentialRule.problem(with: username) {
        case .empty: return .usernameEmpty
        case .tooShort: return .usernameTooShort
        case .tooLong: return .usernameTooLong
        case nil: break
        }
        switch CredentialRule.problem(with: password) {
        case .empty: return .passwordEmpty
        case .tooShort: return .passwordTooShort
        case .tooLong: return .passwordTooLong
        case nil: return nil
        }
    }
}
