/// Routes each ``LoginEvent`` to the matching change of the session's ``LoginModel`` (seed 002,
/// `LoginViewModel`'s input methods).
enum LoginEventRouter {
    /// Applies `event` to `model`.
    /// - Returns: Whether the model changed, so the host bumps the version only when the view model can differ.
    @discardableResult
    static func route(_ event: LoginEvent, to model: inout LoginModel) -> Bool {
        let before = model
        switch event {
        case .usernameDidChange(let text): model.usernameDidChange(text)
        case .passwordDidChange(let length): model.passwordDidChange(length)
        case .loginTouched: model.loginTouched()
        }
        return model != before
    }
}
