import ViewHostAPI

/// The login screen's whole view-model snapshot for one session (seed 002 §3(c)).
///
/// The password is never echoed (the original bound it back to its field; a snapshot is readable by anyone
/// holding the session's token and is logged and cached, so only its length is sent).
///
/// ```json
/// {"username":"maruko","passwordLength":4,"usernameValid":true,"passwordValid":false,"loginEnabled":false,
///  "instruction":"*Password must be more than 6 characters","instructionKey":"password.tooShort",
///  "labels":{…},"colors":{…},"actions":{…}}
/// ```
public struct LoginSnapshot: FeatureSnapshot {
    /// The texts around the two fields and on the button.
    public struct Labels: Codable, Equatable, Sendable {
        /// The username field's label: "User" / `用户`.
        public let username: String
        /// The password field's label: "Password" / `密码`.
        public let password: String
        /// The button's title: "Log in" / `登 录`.
        public let login: String
        /// The empty username field's placeholder: "Enter username" / `请输入用户名`.
        public let usernamePlaceholder: String
        /// The empty password field's placeholder: "Enter password" / `请输入密码`.
        public let passwordPlaceholder: String

        /// Creates the labels.
        public init(
            username: String, password: String, login: String, usernamePlaceholder: String,
            passwordPlaceholder: String
        ) {
            self.username = username
            self.password = password
            self.login = login
            self.usernamePlaceholder = usernamePlaceholder
            self.passwordPlaceholder = passwordPlaceholder
        }
    }

    /// The original view's colour rules as data (seed 002, `LoginView`), as `#RRGGBB`.
    public struct Colors: Codable, Equatable, Sendable {
        /// The username field's background: white when valid, LightRed `#FFCCCC` when not.
        public let usernameField: String
        /// The password field's background, by the same rule.
        public let passwordField: String
        /// The button's background: ThemeColor `#FF3700` when enabled, LightGray `#CCCCCC` when not.
        public let loginButton: String
        /// The button's title: white when enabled, UIKit's dark grey `#555555` when not.
        public let loginTitle: String
        /// The instruction line: red.
        public let instruction: String

        /// Creates the colours.
        public init(
            usernameField: String, passwordField: String, loginButton: String, loginTitle: String, instruction: String
        ) {
            self.usernameField = usernameField
            self.passwordField = passwordField
            self.loginButton = loginButton
            self.loginTitle = loginTitle
            self.instruction = instruction
        }
    }

    /// The original's inputs as ready-to-post requests.
    public struct Actions: Codable, Equatable, Sendable {
        /// Posts `setUsername` with the field's text as `value`; always enabled.
        public let setUsername: ActionDescriptor
        /// Posts `setPassword` with the field's text as `value`; always enabled.
        public let setPassword: ActionDescriptor
        /// Posts `login`; enabled exactly when ``LoginSnapshot/loginEnabled`` is (a disabled login is refused).
        public let login: ActionDescriptor

        /// Creates the actions.
        public init(setUsername: ActionDescriptor, setPassword: ActionDescriptor, login: ActionDescriptor) {
            self.setUsername = setUsername
            self.setPassword = setPassword
            self.login = login
        }
    }

    /// `login`.
    public static let feature = "login"

    /// The username as typed.
    public let username: String
    /// The password's length in UTF-16 code units (the unit the rule counts); the password itself is never sent.
    public let passwordLength: Int
    /// Whether the username's length is 6 to 24.
    public let usernameValid: Bool
    /// Whether the password's length is 6 to 24.
    public let passwordValid: Bool
    /// Whether the login button is enabled: both fields valid.
    public let loginEnabled: Bool
    /// The instruction line in the session's language, `""` when there is nothing to say.
    public let instruction: String
    /// What the instruction line says as a stable key, or null when it is empty.
    @Nullable public private(set) var instructionKey: LoginInstruction?
    /// The screen's fixed texts in the session's language.
    public let labels: Labels
    /// The screen's colours.
    public let colors: Colors
    /// The screen's actions.
    public let actions: Actions

    /// Creates a snapshot.
    public init(
        username: String, passwordLength: Int, usernameValid: Bool, passwordValid: Bool, loginEnabled: Bool,
        instruction: String, instructionKey: LoginInstruction?, labels: Labels, colors: Colors, actions: Actions
    ) {
        self.username = username
        self.passwordLength = passwordLength
        self.usernameValid = usernameValid
        self.passwordValid = passwordValid
        self.loginEnabled = loginEnabled
        self.instruction = instruction
        self.instructionKey = instructionKey
        self.labels = labels
        self.colors = colors
        self.actions = actions
    }
}

extension LoginSnapshot {
    /// The username, the password's length and the button: `username "maruko"; password 4 characters; login disabled`.
    public var summaryLine: String {
        "username \"\(username)\"; password \(passwordLength) characters; login "
            + (loginEnabled ? "enabled" : "disabled")
    }
}
