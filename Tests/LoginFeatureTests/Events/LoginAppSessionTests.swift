import TestSupport
import Testing
import LoginAPI
import ViewHostAPI
import ViewModelCore

@testable import LoginFeature

/// Event walks through a real session: the exact snapshots emitted, in order.
struct LoginAppSessionTests {
    @Test func freshSessionShowsTheInitialStateAtVersionOneWithoutAStartEvent() {
        let login = LoginHarness()
        #expect(login.version == 1)
        #expect(login.snapshot == LoginViewModelBuilder.build(for: .initial, texts: .english))
        #expect(login.session.log(after: 0).entries.isEmpty)
    }

    @Test func seedTestUsernameDidChangeSetsTheUsernameSynchronously() {
        let login = LoginHarness()
        login.send(.usernameDidChange("Maruko"))
        #expect(login.snapshot.username == "Maruko")
    }

    @Test func typingAValidPasswordThenLoggingInSucceeds() {
        let login = LoginHarness()
        let receipt = login.send(.passwordDidChange("12345"), .passwordDidChange("123456"), .loginTouched)
        #expect(receipt == SendReceipt(version: 4, sequence: 3))
        #expect(
            login.seen == [
                LoginLine("maruko", 5, false, .passwordTooShort, "*Password must be more than 6 characters"),
                LoginLine("maruko", 6, true, nil, ""),
                LoginLine("maruko", 6, true, .loginSucceeded, "Login succeeded (*^▽^*)"),
            ])
        #expect(login.recorder.versions == [2, 3, 4])
    }

    /// The original's view model never checked `loginEnabled` (its disabled button did); here a login while the
    /// button is disabled is refused and changes nothing, not acknowledged and ignored (quirk fixed).
    @Test func loginWhileDisabledIsRefusedAndChangesNothing() {
        let login = LoginHarness()
        #expect(throws: SessionError.refused(
            EventRefusal(
                reason: "The login button is disabled: the username and the password must each be 6 to 24 characters.",
                allowed: ["setUsername", "setPassword"]), index: 0)
        ) {
            try login.session.send([.loginTouched], to: LoginApp.key)
        }
        #expect(login.version == 1)
        #expect(login.session.log(after: 0).entries.isEmpty)
        #expect(login.seen.isEmpty)
        #expect(login.snapshot.instructionKey == .passwordTooShort)
        #expect(login.snapshot.actions.login.enabled == false)
    }

    @Test func successIsOverwrittenByTheNextEditButNotByAnEqualValueQuirksKept() {
        let login = LoginHarness()
        login.send(.passwordDidChange("123456"), .loginTouched)
        _ = login.recorder.drain()
        login.send(.usernameDidChange("maruko"), .passwordDidChange("123456"), .loginTouched)
        #expect(login.recorder.drain().isEmpty)
        login.send(.usernameDidChange("marukochan"))
        #expect(login.seen == [LoginLine("marukochan", 6, true, nil, "")])
    }

    @Test func chineseSessionWalksThroughEveryUsernameRuleThenSucceeds() {
        let login = LoginHarness(locale: "zh-Hans")
        #expect(login.snapshot.instruction == "*密码必须超过6个字符")
        login.send(
            .usernameDidChange(""), .usernameDidChange("Tsu"), .usernameDidChange("Tsu01234567890123456789Tsu"),
            .usernameDidChange("Maruko"), .passwordDidChange(""), .passwordDidChange("1234567"), .loginTouched)
        #expect(
            login.recorder.snapshots.map(\.instruction) == [
                "*用户名不能为空", "*用户名必须超过6个字符", "*用户名不能超过24个字符", "*密码必须超过6个字符", "*密码不能为空", "",
                "登录成功(*^▽^*)",
            ])
        #expect(login.snapshot.labels.login == "登 录")
    }

    @Test func underscoreAndRegionLocalesAlsoGetChinese() {
        #expect(LoginHarness(locale: "zh_Hans").snapshot.labels.username == "用户")
        #expect(LoginHarness(locale: "zh-Hans-CN").snapshot.labels.username == "用户")
        #expect(LoginHarness(locale: "en_GB").snapshot.labels.username == "User")
    }
}
