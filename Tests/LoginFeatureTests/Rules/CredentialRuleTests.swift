import Testing
import LoginAPI
import ViewHostAPI

@testable import LoginFeature

/// Seed 002: `usernameValid` / `passwordValid` are `length ≥ 6 && length ≤ 24`, NSString length.
struct CredentialRuleTests {
    @Test func emptyIsItsOwnProblemNotTooShort() {
        #expect(CredentialRule.problem(with: "") == .empty)
        #expect(CredentialRule.problem(with: "a") == .tooShort)
    }

    @Test func oneToFiveIsTooShort() {
        for count in 1...5 { #expect(CredentialRule.problem(with: letters(count)) == .tooShort) }
    }

    @Test func exactlySixIsAcceptedAlthoughTheMessageSaysMoreThanSixQuirkKept() {
        #expect(CredentialRule.isValid(letters(6)))
        #expect(!CredentialRule.isValid(letters(5)))
    }

    @Test func exactlyTwentyFourIsAcceptedAndTwentyFiveIsTooLong() {
        #expect(CredentialRule.isValid(letters(24)))
        #expect(CredentialRule.problem(with: letters(25)) == .tooLong)
    }

    @Test func seedTestTsuIsInvalid() {
        #expect(!CredentialRule.isValid("Tsu"))
    }

    @Test func seedTestTwentySixCharacterNameIsInvalid() {
        #expect("Tsu01234567890123456789Tsu".count == 26)
        #expect(CredentialRule.problem(with: "Tsu01234567890123456789Tsu") == .tooLong)
    }

    /// The article says 字节 "bytes", the code counts `NSString.length`: UTF-16 code units (quirk kept).
    @Test(arguments: [
        ("丸子丸子丸子", 6, true),  // 6 CJK characters: 18 bytes, 6 units
        ("丸子丸子丸", 5, false),  // 15 bytes, yet too short
        (String(repeating: "丸", count: 24), 24, true),  // 72 bytes, yet valid
        ("😀😀😀", 6, true),  // 3 characters, 12 bytes, 6 units
        ("😀😀a", 5, false),  // 3 characters, 9 bytes, 5 units
        (String(repeating: "😀", count: 12), 24, true),
        (String(repeating: "😀", count: 13), 26, false),  // 13 characters, too long
        ("👨‍👩‍👧", 8, true),  // one grapheme, 8 units: valid
        ("e\u{301}e\u{301}e\u{301}", 6, true),  // 3 characters with combining accents
    ])
    func lengthCountsUTF16CodeUnitsNotBytesOrCharactersQuirkKept(text: String, units: Int, valid: Bool) {
        #expect(CredentialRule.length(of: text) == units)
        #expect(CredentialRule.isValid(text) == valid)
    }
}
