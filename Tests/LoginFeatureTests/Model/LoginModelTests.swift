import Testing
import LoginAPI
import ViewHostAPI
import ViewModelCore

@testable import LoginFeature

/// Seed 002's inputs on the model: the original's `Observable` only notifies on a different value.
struct LoginModelTests {
    @Test func initialStateIsTheControllersMarukoAnd1234() {
        #expect(LoginModel.initial == .make(username: "maruko", password: "1234"))
        #expect(!LoginModel.initial.loginEnabled)
    }

    @Test func seedTestUsernameDidChangeMarukoSetsTheUsername() {
        var model = LoginModel.initial
        model.usernameDidChange("Maruko")
        #expect(model.username == "Maruko")
    }

    @Test func passwordDidChangeKeepsOnlyTheLength() {
        var model = LoginModel.initial
        model.passwordDidChange(PasswordLength("secret99"))
        #expect(model.passwordLength.units == 8)
    }

    @Test func loginTouchedWhileEnabledSucceeds() {
        var model = LoginModel.make()
        model.loginTouched()
        #expect(model.loginSucceeded)
    }

    @Test func loginWhileDisabledIsRefusedBeforeTheModelQuirkFixed() {
        #expect(throws: EventRefusal.self) { try LoginApp.check(.loginTouched, in: .initial) }
        #expect((try? LoginApp.check(.loginTouched, in: .make())) != nil)
        #expect((try? LoginApp.check(.usernameDidChange(""), in: .initial)) != nil)
    }

    @Test func nextEditOverwritesTheSuccessQuirkKept() {
        var model = LoginModel.make(loginSucceeded: true)
        model.passwordDidChange("1234567")
        #expect(!model.loginSucceeded)
        model = .make(loginSucceeded: true)
        model.usernameDidChange("maruko2")
        #expect(!model.loginSucceeded)
    }

    @Test func equalValueNotifiesNobodySoTheSuccessStaysObservableQuirkKept() {
        var model = LoginModel.make(loginSucceeded: true)
        model.usernameDidChange("maruko")
        model.passwordDidChange("123456")
        #expect(model.loginSucceeded)
    }

    @Test func routerReportsWhetherTheModelChanged() {
        var model = LoginModel.initial
        #expect(LoginEventRouter.route(.usernameDidChange("maruko"), to: &model) == false)
        #expect(LoginEventRouter.route(.usernameDidChange("Maruko"), to: &model) == true)
        #expect(LoginEventRouter.route(.passwordDidChange("123456"), to: &model) == true)
        #expect(LoginEventRouter.route(.loginTouched, to: &model) == true)
        #expect(LoginEventRouter.route(.loginTouched, to: &model) == false)
        #expect(model == .make(username: "Maruko", password: "123456", loginSucceeded: true))
    }
}
