import HTTPCore

/// The cookies a browser holds for its sessions, one pair per session, so any number of tabs each keep their own
/// (README, "Sessions in a browser"):
/// - `viewhost_session_ID=TOKEN; HttpOnly; SameSite=Strict; Path=/v1/sessions/ID`: the token, sent only with that
///   session's requests, never readable by a script;
/// - `viewhost_held_ID=1; SameSite=Strict; Path=/`: no secret, readable by the page, which learns from it which
///   sessions this browser holds (a session id alone opens nothing).
///
/// Today's single `viewhost_session=TOKEN` (`Path=/`) of browsers that got it from an earlier release is still
/// taken, after the session's own cookie, and no longer set.
enum SessionCookie {
    /// The one cookie of earlier releases: any session's token, for every path.
    static let legacyName = "viewhost_session"

    /// The name of the cookie that holds session `id`'s token.
    static func tokenName(_ id: String) -> String { "viewhost_session_\(id)" }

    /// The name of the cookie that says this browser holds session `id`.
    static func markerName(_ id: String) -> String { "viewhost_held_\(id)" }

    /// The `Set-Cookie` values for a session just made (`id` and `token` are the server's own: letters and digits).
    static func created(id: String, token: String) -> [String] {
        [
            "\(tokenName(id))=\(token); HttpOnly; SameSite=Strict; Path=/v1/sessions/\(id)",
            "\(markerName(id))=1; SameSite=Strict; Path=/",
        ]
    }

    /// The `Set-Cookie` values that clear a deleted session's cookies, and today's single cookie when it was what
    /// authenticated the deletion (it holds that session's token, and no other's).
    static func cleared(id: String, legacy: Bool) -> [String] {
        var values = [
            "\(tokenName(id))=; HttpOnly; SameSite=Strict; Path=/v1/sessions/\(id); Max-Age=0",
            "\(markerName(id))=; SameSite=Strict; Path=/; Max-Age=0",
        ]
        if legacy { values.append("\(legacyName)=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0") }
        return values
    }

    /// The token for session `id` from the request's cookies: its own cookie (the first of that name), else
    /// today's single cookie; `legacy` says which. Another session's cookie is never taken for it.
    static func token(in request: HTTPRequest, session id: String) -> (token: String, legacy: Bool)? {
        let own = tokenName(id)
        var legacy: String?
        for cookieHeader in request.headers.values(for: .cookie) {
            for pair in cookieHeader.fieldParts(separatedBy: UInt8(ascii: ";")) {
                // On bytes: `=` followed by a combining mark is one Character (HeaderValuesFuzzer).
                let bytes = pair.utf8
                guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")), equals != bytes.startIndex else { continue }
                let name = Substring(bytes[..<equals]).trimmingOWS()
                guard name == own || (legacy == nil && name == legacyName) else { continue }
                let value = String(Substring(bytes[bytes.index(after: equals)...]).trimmingOWS())
                if name == own { return (value, false) }
                legacy = value
            }
        }
        return legacy.map { ($0, true) }
    }
}
