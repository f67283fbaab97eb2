/// The login feature's stored shape before schema version 2, which kept the password's text (in the state, and in
/// every `passwordDidChange` of the journal); read only to bring stored sessions up to date, keeping the length.
enum LoginSchemaV1 {
    /// ``LoginModel`` as version 1 stored it.
    struct Model: Decodable {
        let username: String
        let password: String
        let loginSucceeded: Bool

        var current: LoginModel {
            LoginModel(username: username, passwordLength: PasswordLength(password), loginSucceeded: loginSucceeded)
        }
    }

    /// ``LoginEvent`` as version 1 stored it.
    enum Event: Decodable {
        case usernameDidChange(String)
        case passwordDidChange(String)
        case loginTouched

        var current: LoginEvent {
            switch self {
            case .usernameDidChange(let text): .usernameDidChange(text)
            case .passwordDidChange(let text): .passwordDidChange(PasswordLength(text))
            case .loginTouched: .loginTouched
            }
        }
    }
}
