import ViewHostAPI

/// What the instruction line under the form says, as a stable key (`instructionKey` in the snapshot) that a client
/// may use to pick its own text; the snapshot's `instruction` carries the session locale's text.
///
/// Mirrors the original (seed 002, `instruction`): the first failing rule in the order of the cases below (the
/// username wins over the password), the success message after a tap on the enabled button, and nothing (key
/// `null`, text `""`) when both fields are valid. A tap on the disabled button is refused (`409`), so it has no
/// key of its own.
public enum LoginInstruction: String, Sendable, Equatable, CaseIterable, Codable {
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
}
