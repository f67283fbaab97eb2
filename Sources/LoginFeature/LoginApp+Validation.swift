import LoginAPI
import ViewHostAPI
import ViewModelCore

/// What a login form read from outside (a journal export) is held to: what `setUsername` and `setPassword` take.
extension LoginApp {
    /// The longest password length a `setPassword` makes: ``LoginIntent/valueLimit`` code points, each at most two
    /// UTF-16 units.
    static let maxPasswordUnits = LoginIntent.valueLimit.characters * 2

    /// Refuses a form `setUsername` and `setPassword` could not have made: a username past
    /// ``LoginIntent/valueLimit``, a password length past ``maxPasswordUnits``.
    public static func validate(state: LoginModel) throws(ValueRejection) {
        try ValueRejection.check(state.username, within: LoginIntent.valueLimit, field: "username")
        try ValueRejection.check(state.passwordLength.units, in: 0...maxPasswordUnits, field: "passwordLength")
    }

    /// Refuses a username or password length past the same limits.
    public static func validate(event: LoginEvent) throws(ValueRejection) {
        switch event {
        case .usernameDidChange(let username):
            try ValueRejection.check(username, within: LoginIntent.valueLimit, field: "usernameDidChange")
        case .passwordDidChange(let length):
            try ValueRejection.check(length.units, in: 0...maxPasswordUnits, field: "passwordDidChange")
        case .loginTouched:
            break
        }
    }
}
