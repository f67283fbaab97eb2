import LoginAPI
import ViewHostAPI

extension LoginInstruction {
    /// The first failing rule for these fields, username first, or nil when both are valid (seed 002, ①–⑥).
    static func firstFailingRule(username: String, password: PasswordLength) -> LoginInstruction? {
        switch CredentialRule.problem(with: username) {
        case .empty: return .usernameEmpty
        case .tooShort: return .usernameTooShort
        case .tooLong: return .usernameTooLong
        case nil: break
        }
        switch CredentialRule.problem(length: password.units) {
        case .empty: return .passwordEmpty
        case .tooShort: return .passwordTooShort
        case .tooLong: return .passwordTooLong
        case nil: return nil
        }
    }
}
