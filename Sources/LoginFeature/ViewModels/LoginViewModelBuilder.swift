import LoginAPI
import ViewHostAPI
import ViewModelCore

/// Builds the login snapshot from the model and the session's texts: the derivations the original's
/// `LoginViewModel` makes with its combiners, and the rules its `LoginView` applies to colours (seed 002).
enum LoginViewModelBuilder {
    /// The valid field background (white).
    static let validFieldColor = "#FFFFFF"
    /// The invalid field background (the original's LightRed).
    static let invalidFieldColor = "#FFCCCC"
    /// The enabled button (the original's ThemeColor).
    static let enabledButtonColor = "#FF3700"
    /// The disabled button (the original's LightGray).
    static let disabledButtonColor = "#CCCCCC"
    /// The enabled button's title (white).
    static let enabledTitleColor = "#FFFFFF"
    /// The disabled button's title (UIKit's `darkGrayColor`, white 1/3).
    static let disabledTitleColor = "#555555"
    /// The instruction line (UIKit's `redColor`).
    static let instructionColor = "#FF0000"

    /// The snapshot of `model` with `texts`.
    static func build(for model: LoginModel, texts: LoginTexts) -> LoginSnapshot {
        let usernameValid = CredentialRule.isValid(model.username)
        let passwordValid = CredentialRule.isValid(length: model.passwordLength.units)
        let loginEnabled = usernameValid && passwordValid
        let (instructionKey, instruction) = instruction(for: model, texts: texts)
        return LoginSnapshot(
            username: model.username,
            passwordLength: model.passwordLength.units,
            usernameValid: usernameValid,
            passwordValid: passwordValid,
            loginEnabled: loginEnabled,
            instruction: instruction,
            instructionKey: instructionKey,
            labels: labels(texts),
            colors: colors(usernameValid: usernameValid, passwordValid: passwordValid, loginEnabled: loginEnabled),
            actions: actions(loginEnabled: loginEnabled))
    }

    /// The instruction's key and text: the success message after a tap until the next edit, otherwise the first
    /// failing rule (seed 002, ①–⑥), otherwise nothing.
    static func instruction(for model: LoginModel, texts: LoginTexts) -> (LoginInstruction?, String) {
        if model.loginSucceeded { return (.loginSucceeded, texts.text(for: .loginSucceeded)) }
        let failing = LoginInstruction.firstFailingRule(username: model.username, password: model.passwordLength)
        return (failing, failing.map(texts.text(for:)) ?? "")
    }

    /// The fixed texts.
    static func labels(_ texts: LoginTexts) -> LoginSnapshot.Labels {
        LoginSnapshot.Labels(
            username: texts.usernameLabel, password: texts.passwordLabel, login: texts.loginTitle,
            usernamePlaceholder: texts.usernamePlaceholder, passwordPlaceholder: texts.passwordPlaceholder)
    }

    /// The original view's colour rules.
    static func colors(usernameValid: Bool, passwordValid: Bool, loginEnabled: Bool) -> LoginSnapshot.Colors {
        LoginSnapshot.Colors(
            usernameField: usernameValid ? validFieldColor : invalidFieldColor,
            passwordField: passwordValid ? validFieldColor : invalidFieldColor,
            loginButton: loginEnabled ? enabledButtonColor : disabledButtonColor,
            loginTitle: loginEnabled ? enabledTitleColor : disabledTitleColor,
            instruction: instructionColor)
    }

    /// The three inputs as actions; only `login` can be disabled, as only the button could.
    static func actions(loginEnabled: Bool) -> LoginSnapshot.Actions {
        LoginSnapshot.Actions(
            setUsername: setUsername, setPassword: setPassword, login: loginEnabled ? enabledLogin : disabledLogin)
    }

    // The actions depend on nothing but `loginEnabled`, so they are made once, not with every snapshot (making an
    // action encodes its intent, one to three times: a tenth of a snapshot's cost in a burst of changes).
    private static let setUsername = ActionDescriptor { (value: String) in LoginIntent.setUsername(value: value) }
    private static let setPassword = ActionDescriptor { (value: String) in LoginIntent.setPassword(value: value) }
    private static let enabledLogin = ActionDescriptor(LoginIntent.login, enabled: true)
    private static let disabledLogin = ActionDescriptor(LoginIntent.login, enabled: false)
}
