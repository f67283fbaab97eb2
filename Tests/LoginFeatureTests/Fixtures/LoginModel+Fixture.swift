import LoginAPI
import ViewHostAPI

@testable import LoginFeature

extension LoginModel {
    /// A model with valid fields unless told otherwise.
    static func make(username: String = "maruko", password: String = "123456", loginSucceeded: Bool = false)
        -> LoginModel
    {
        var model = LoginModel(username: username, password: PasswordLength(password))
        if loginSucceeded { model.loginTouched() }
        return model
    }
}

/// Text of `count` ASCII letters.
func letters(_ count: Int) -> String {
    String(repeating: "a", count: count)
}
