import Foundation

/// Hides passwords in database URLs and in the messages that may repeat them, for logs and errors.
///
/// A password is masked where it stands as one: in a URI's user information (`postgres://user:SECRET@host`), as the
/// value of a `password` query parameter (`?password=SECRET&sslmode=…`) or conninfo keyword (`password=SECRET`,
/// `password='SEC RET'`). Never as a substring elsewhere: a one-letter password used to turn "port 1 failed" into
/// "***ort 1 failed".
enum PasswordRedaction {
    /// `text` with every password in it replaced by `***`.
    static func redacted(_ text: String) -> String {
        // The user information's password: after `scheme://user:`, up to the `@`.
        let userInfo = #/(?<head>[A-Za-z][A-Za-z0-9+.\-]*://[^:/?#@\s]*:)[^@/?#\s]*@/#
        // A `password` parameter or keyword: `password=` and its value (quoted, or up to `&`, a space or a quote).
        let keyword = #/(?<head>(?i:password)\s*=\s*)(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^\s&'"]+)/#
        return text.replacing(userInfo) { match in "\(match.output.head)***@" }
            .replacing(keyword) { match in "\(match.output.head)***" }
    }
}
