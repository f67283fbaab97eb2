import Testing
import LoginAPI
import ViewHostAPI
import ViewModelCore

@testable import LoginFeature

/// The data-flow log names the original's events and never holds a password.
struct LoginAppDescribeTests {
    @Test func eventsAreNamedAsTheOriginalNamesThem() {
        #expect(
            LoginApp.describe(.usernameDidChange("maruko"))
                == EventDescription(name: "usernameDidChange", summary: "value=\"maruko\""))
        #expect(LoginApp.describe(.loginTouched) == EventDescription(name: "loginTouched"))
    }

    @Test func passwordIsLoggedOnlyAsItsLength() {
        #expect(
            LoginApp.describe(.passwordDidChange("secret99"))
                == EventDescription(name: "passwordDidChange", summary: "length=8"))
        let login = LoginHarness()
        login.send(.passwordDidChange("hunter2hunter2"))
        let entry = login.session.log(after: 0).entries.last
        #expect(entry?.event == "passwordDidChange")
        #expect(entry?.summary == "length=14")
    }

    @Test func longUsernamesAreCutInTheSummary() {
        let summary = LoginApp.describe(.usernameDidChange(letters(256))).summary
        #expect(summary == "value=\"" + letters(31) + "…\"")
    }
}
