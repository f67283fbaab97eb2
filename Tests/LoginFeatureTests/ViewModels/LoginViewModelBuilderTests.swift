import Testing
import LoginAPI
import ViewHostAPI
import ViewModelCore

@testable import LoginFeature

/// Seed 002's rules as pure functions: model in, snapshot out.
struct LoginViewModelBuilderTests {
    private func build(_ model: LoginModel, _ texts: LoginTexts = .english) -> LoginSnapshot {
        LoginViewModelBuilder.build(for: model, texts: texts)
    }

    @Test func initialStateSaysThePasswordIsTooShort() {
        let snapshot = build(.initial)
        #expect(snapshot.username == "maruko")
        #expect(snapshot.passwordLength == 4)
        #expect(snapshot.usernameValid)
        #expect(!snapshot.passwordValid)
        #expect(!snapshot.loginEnabled)
        #expect(snapshot.instructionKey == .passwordTooShort)
        #expect(snapshot.instruction == "*Password must be more than 6 characters")
    }

    @Test func initialStateInChineseIsTheOriginalsSnapshot() {
        let snapshot = build(.initial, .simplifiedChinese)
        #expect(snapshot.instruction == "*密码必须超过6个字符")
        #expect(snapshot.instructionKey == .passwordTooShort)
        #expect(
            snapshot.labels
                == LoginSnapshot.Labels(
                    username: "用户", password: "密码", login: "登 录", usernamePlaceholder: "请输入用户名",
                    passwordPlaceholder: "请输入密码"))
    }

    @Test func seedTestTsuIsAnInvalidUsername() {
        let snapshot = build(.make(username: "Tsu"))
        #expect(!snapshot.usernameValid)
        #expect(snapshot.instruction == "*Username must be more than 6 characters")
    }

    @Test func seedTestTwentySixCharacterUsernameIsInvalid() {
        let snapshot = build(.make(username: "Tsu01234567890123456789Tsu"))
        #expect(!snapshot.usernameValid)
        #expect(snapshot.instructionKey == .usernameTooLong)
        #expect(snapshot.instruction == "*Username cannot exceed 24 characters")
    }

    @Test func ruleOneEmptyUsername() {
        let snapshot = build(.make(username: ""))
        #expect(snapshot.instructionKey == .usernameEmpty)
        #expect(snapshot.instruction == "*Username cannot be empty")
    }

    @Test func ruleTwoShortUsernameButExactlySixIsAcceptedQuirkKept() {
        #expect(build(.make(username: letters(5))).instructionKey == .usernameTooShort)
        let six = build(.make(username: letters(6)))
        #expect(six.usernameValid)
        #expect(six.instructionKey == nil)
    }

    @Test func ruleThreeLongUsernameButExactlyTwentyFourIsAccepted() {
        #expect(build(.make(username: letters(25))).instructionKey == .usernameTooLong)
        #expect(build(.make(username: letters(24))).usernameValid)
    }

    @Test func ruleFourEmptyPassword() {
        let snapshot = build(.make(password: ""))
        #expect(snapshot.instructionKey == .passwordEmpty)
        #expect(snapshot.instruction == "*Password cannot be empty")
    }

    @Test func ruleFiveShortPasswordButExactlySixIsAcceptedQuirkKept() {
        let five = build(.make(password: letters(5)))
        #expect(five.instructionKey == .passwordTooShort)
        #expect(five.instruction == "*Password must be more than 6 characters")
        #expect(build(.make(password: letters(6))).passwordValid)
    }

    @Test func ruleSixLongPasswordButExactlyTwentyFourIsAccepted() {
        let long = build(.make(password: letters(25)))
        #expect(long.instructionKey == .passwordTooLong)
        #expect(long.instruction == "*Password cannot exceed 24 characters")
        #expect(build(.make(password: letters(24))).passwordValid)
    }

    @Test func usernameErrorWinsOverPasswordError() {
        let snapshot = build(.make(username: "", password: ""))
        #expect(!snapshot.usernameValid)
        #expect(!snapshot.passwordValid)
        #expect(snapshot.instructionKey == .usernameEmpty)
    }

    @Test func bothValidEnableLoginWithNoInstruction() {
        let snapshot = build(.make())
        #expect(snapshot.loginEnabled)
        #expect(snapshot.instruction == "")
        #expect(snapshot.instructionKey == nil)
    }

    @Test func seedTestLoginTouchedGivesTheSuccessInstruction() {
        let snapshot = build(.make(loginSucceeded: true))
        #expect(snapshot.instructionKey == .loginSucceeded)
        #expect(snapshot.instruction == "Login succeeded (*^▽^*)")
        #expect(build(.make(loginSucceeded: true), .simplifiedChinese).instruction == "登录成功(*^▽^*)")
    }

    @Test func passwordLengthCountsUTF16CodeUnitsQuirkKept() {
        #expect(build(.make(password: "😀😀😀")).passwordLength == 6)
        #expect(build(.make(password: "😀😀😀")).passwordValid)
        #expect(build(.make(password: "丸子丸子丸")).instructionKey == .passwordTooShort)
    }

    @Test func chineseRuleTexts() {
        let texts = LoginTexts.simplifiedChinese
        #expect(build(.make(username: ""), texts).instruction == "*用户名不能为空")
        #expect(build(.make(username: "Tsu"), texts).instruction == "*用户名必须超过6个字符")
        #expect(build(.make(username: letters(25)), texts).instruction == "*用户名不能超过24个字符")
        #expect(build(.make(password: ""), texts).instruction == "*密码不能为空")
        #expect(build(.make(password: "1"), texts).instruction == "*密码必须超过6个字符")
        #expect(build(.make(password: letters(25)), texts).instruction == "*密码不能超过24个字符")
    }

    @Test func englishLabels() {
        #expect(
            build(.initial).labels
                == LoginSnapshot.Labels(
                    username: "User", password: "Password", login: "Log in", usernamePlaceholder: "Enter username",
                    passwordPlaceholder: "Enter password"))
    }

    @Test func validFieldIsWhiteAndInvalidLightRedAsTheOriginalViewTestExpects() {
        let colors = build(.make(username: "Tsu")).colors
        #expect(colors.usernameField == "#FFCCCC")
        #expect(colors.passwordField == "#FFFFFF")
        #expect(colors.instruction == "#FF0000")
    }

    @Test func enabledButtonIsThemeColorWithWhiteTitleDisabledLightGrayWithDarkGrey() {
        let enabled = build(.make()).colors
        #expect((enabled.loginButton, enabled.loginTitle) == ("#FF3700", "#FFFFFF"))
        let disabled = build(.initial).colors
        #expect((disabled.loginButton, disabled.loginTitle) == ("#CCCCCC", "#555555"))
    }

    @Test func actionsPostTheClientTypesAndLoginFollowsLoginEnabled() {
        let disabled = build(.initial).actions
        #expect(disabled.setUsername == ActionDescriptor(event: "setUsername", fields: ["value": "{value}"]))
        #expect(disabled.setPassword == ActionDescriptor(event: "setPassword", fields: ["value": "{value}"]))
        #expect(disabled.login == ActionDescriptor(event: "login", enabled: false))
        #expect(build(.make()).actions.login.enabled == true)
    }
}
