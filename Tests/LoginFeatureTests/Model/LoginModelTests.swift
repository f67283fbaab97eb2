import Testing

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

    @Test func passwordDidChangeSetsThePassword() {
        var model = LoginModel.initial
        model.passwordDidChange("secret99")
        #expect(model.password == "secret99")
    }

    @Test func loginTouchedWhileEnabledSucceeds() {
        var model = LoginModel.make()
        model.loginTouched()
        #expect(model.lastAttempt == .succeeded)
    }

    @Test func loginTouchedWhileDisabledIsRefusedInTheViewModelQuirkFixed() {
        var model = LoginModel.initial
        model.loginTouched()
        #expect(model.lastAttempt == .refused)
    }

    @Test func nextEditOverwritesTheSuccessQuirkKept() {
        var model = LoginModel.make(lastAttempt: .succeeded)
        model.passwordDidChange("1234567")
        #expect(model.lastAttempt == nil)
        model = .make(lastAttempt: .succeeded)
        model.usernameDidChange("maruko2")
        #expect(model.lastAttempt == nil)
    }

    @Test func nextEditClearsARefusal() {
        var model = LoginModel.make(password: "1", lastAttempt: .refused)
        model.passwordDidChange("12")
        #expect(model.lastAttempt == nil)
    }

    @Test func equalValueNotifiesNobodySoTheSuccessStaysObservableQuirkKept() {
        var model = LoginModel.make(lastAttempt: .succeeded)
        model.usernameDidChange("maruko")
        model.passwordDidChange("123456")
        #expect(model.lastAttempt == .succeeded)
    }

    @Test func routerReportsWhetherTheModelChanged() {
        var model = LoginModel.initial
        #expect(LoginEventRouter.route(.usernameDidChange("maruko"), to: &model) == false)
        #expect(LoginEventRouter.route(.usernameDidChange("Maruko"), to: &model) == true)
        #expect(LoginEventRouter.route(.loginTouched, to: &model) == true)
        #expect(LoginEventRouter.route(.loginTouched, to: &model) == false)
        #expect(LoginEventRouter.route(.passwordDidChange("123456"), to: &model) == true)
        #expect(model == .make(username: "Maruko", password: "123456"))
    }
}
