import Testing
import LoginAPI
import ViewHostAPI

@testable import LoginFeature

struct LoginTextsTests {
    @Test(arguments: [
        ("zh-Hans", true), ("zh_Hans", true), ("zh-Hans-CN", true), ("zh_Hans_SG", true), ("ZH-HANS", true),
        ("zh-hans-hk", true), ("en_US", false), ("en", false), ("", false), ("zh", false), ("zh-CN", false),
        ("zh-Hant", false), ("zh-Hant-TW", false), ("zh-Hansx", false), ("fr_FR", false), ("zh-Han", false),
        ("Zh_hAnS_x", true), ("zh-Hans_TW", true), ("zh-Hañs", false), ("zh—Hans", false), ("zh-Hans\u{301}", false),
    ])
    func chineseForTheZhHansPrefixOnly(locale: String, chinese: Bool) {
        #expect(LoginTexts.forLocale(locale) == (chinese ? .simplifiedChinese : .english))
    }

    @Test func chineseTextsAreExactlyTheOriginals() {
        let texts = LoginTexts.simplifiedChinese
        #expect(
            [
                texts.usernameLabel, texts.passwordLabel, texts.loginTitle, texts.usernamePlaceholder,
                texts.passwordPlaceholder,
            ] == ["用户", "密码", "登 录", "请输入用户名", "请输入密码"])
        #expect(
            LoginInstruction.allCases.map(texts.text(for:)) == [
                "*用户名不能为空", "*用户名必须超过6个字符", "*用户名不能超过24个字符", "*密码不能为空",
                "*密码必须超过6个字符", "*密码不能超过24个字符", "登录成功(*^▽^*)",
            ])
    }

    @Test func englishTextsAreTheSeedsTranslations() {
        let texts = LoginTexts.english
        #expect(
            [
                texts.usernameLabel, texts.passwordLabel, texts.loginTitle, texts.usernamePlaceholder,
                texts.passwordPlaceholder,
            ] == ["User", "Password", "Log in", "Enter username", "Enter password"])
        #expect(
            LoginInstruction.allCases.map(texts.text(for:)) == [
                "*Username cannot be empty", "*Username must be more than 6 characters",
                "*Username cannot exceed 24 characters", "*Password cannot be empty",
                "*Password must be more than 6 characters", "*Password cannot exceed 24 characters",
                "Login succeeded (*^▽^*)",
            ])
    }
}
