import Testing
import LoginAPI
import ViewHostAPI

@testable import LoginFeature

/// Seed 002: the instruction is the first failing rule, ① to ⑥, the username first.
struct LoginInstructionTests {
    @Test(arguments: [
        ("", "", LoginInstruction.usernameEmpty),
        ("", "123456", .usernameEmpty),
        ("Tsu", "", .usernameTooShort),
        ("Tsu", "1", .usernameTooShort),
        ("Tsu01234567890123456789Tsu", "", .usernameTooLong),
        ("Tsu01234567890123456789Tsu", String(repeating: "1", count: 30), .usernameTooLong),
        ("maruko", "", .passwordEmpty),
        ("maruko", "1234", .passwordTooShort),
        ("maruko", String(repeating: "1", count: 25), .passwordTooLong),
    ])
    func usernameErrorsWinOverPasswordErrors(username: String, password: String, expected: LoginInstruction) {
        #expect(LoginInstruction.firstFailingRule(username: username, password: PasswordLength(password)) == expected)
    }

    @Test func bothValidHaveNoFailingRule() {
        #expect(LoginInstruction.firstFailingRule(username: "maruko", password: "123456") == nil)
        #expect(LoginInstruction.firstFailingRule(username: letters(24), password: PasswordLength(letters(24))) == nil)
    }

    @Test func keysAreStable() {
        #expect(
            LoginInstruction.allCases.map(\.rawValue) == [
                "username.empty", "username.tooShort", "username.tooLong", "password.empty", "password.tooShort",
                "password.tooLong", "login.succeeded",
            ])
    }
}
