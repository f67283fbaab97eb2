@testable import LoginFeature

extension LoginModel {
    /// A model with valid fields unless told otherwise.
    static func make(username: String = "maruko", password: String = "123456", lastAttempt: Attempt? = nil)
        -> LoginModel
    {
        LoginModel(username: username, password: password, lastAttempt: lastAttempt)
    }
}

/// Text of `count` ASCII letters.
func letters(_ count: Int) -> String {
    String(repeating: "a", count: count)
}
