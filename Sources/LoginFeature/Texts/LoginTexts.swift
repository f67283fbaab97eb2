import Foundation
import LoginAPI
import ViewHostAPI

/// Every text of the login screen in one language: English by default, the original's Chinese for `zh-Hans`.
///
/// The Chinese texts are exactly the original's (seed 002, `LoginViewModel.m`, `LoginView.m`), including the
/// space in `登 录`; the English ones are the seed's translations.
struct LoginTexts: Equatable, Sendable {
    let usernameLabel: String
    let passwordLabel: String
    let loginTitle: String
    let usernamePlaceholder: String
    let passwordPlaceholder: String
    let usernameEmpty: String
    let usernameTooShort: String
    let usernameTooLong: String
    let passwordEmpty: String
    let passwordTooShort: String
    let passwordTooLong: String
    let loginSucceeded: String

    /// The seed's English translations.
    static let english = LoginTexts(
        usernameLabel: "User", passwordLabel: "Password", loginTitle: "Log in",
        usernamePlaceholder: "Enter username", passwordPlaceholder: "Enter password",
        usernameEmpty: "*Username cannot be empty", usernameTooShort: "*Username must be more than 6 characters",
        usernameTooLong: "*Username cannot exceed 24 characters", passwordEmpty: "*Password cannot be empty",
        passwordTooShort: "*Password must be more than 6 characters",
        passwordTooLong: "*Password cannot exceed 24 characters", loginSucceeded: "Login succeeded (*^▽^*)")

    /// The original's Simplified Chinese.
    static let simplifiedChinese = LoginTexts(
        usernameLabel: "用户", passwordLabel: "密码", loginTitle: "登 录",
        usernamePlaceholder: "请输入用户名", passwordPlaceholder: "请输入密码",
        usernameEmpty: "*用户名不能为空", usernameTooShort: "*用户名必须超过6个字符",
        usernameTooLong: "*用户名不能超过24个字符", passwordEmpty: "*密码不能为空",
        passwordTooShort: "*密码必须超过6个字符", passwordTooLong: "*密码不能超过24个字符",
        loginSucceeded: "登录成功(*^▽^*)")

    /// The texts for a session locale: the original's Chinese when the identifier starts with the `zh-Hans`
    /// language and script (any case, `-` or `_`: `zh-Hans`, `zh_Hans`, `zh-Hans-CN`, `zh_Hans_SG`), English
    /// otherwise. A bare `zh` or `zh-CN` names no script and gets English.
    static func forLocale(_ identifier: String) -> LoginTexts {
        // On the UTF-8 bytes, ASCII letters folded by hand: every snapshot asks, and Foundation's lowercasing and
        // replacing took a tenth of the login snapshot's time.
        let prefix = Array("zh-hans".utf8)
        let bytes = identifier.utf8
        guard bytes.count >= prefix.count else { return .english }
        for (byte, expected) in zip(bytes, prefix) {
            let folded = byte == UInt8(ascii: "_") ? UInt8(ascii: "-") : byte | (byte.isASCIIUppercase ? 0x20 : 0)
            guard folded == expected else { return .english }
        }
        let rest = bytes.dropFirst(prefix.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "-") || rest.first == UInt8(ascii: "_")
            ? .simplifiedChinese : .english
    }

    /// The text of `instruction`.
    func text(for instruction: LoginInstruction) -> String {
        switch instruction {
        case .usernameEmpty: usernameEmpty
        case .usernameTooShort: usernameTooShort
        case .usernameTooLong: usernameTooLong
        case .passwordEmpty: passwordEmpty
        case .passwordTooShort: passwordTooShort
        case .passwordTooLong: passwordTooLong
        case .loginSucceeded: loginSucceeded
        }
    }
}

extension UInt8 {
    /// Whether the byte is an ASCII capital letter.
    fileprivate var isASCIIUppercase: Bool { self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z") }
}
