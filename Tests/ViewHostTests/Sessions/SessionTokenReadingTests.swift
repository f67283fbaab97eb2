import ViewHost
import HTTPCore
import Testing

/// Where a request's token for session `s` is read from: `Authorization: Bearer` (any case of the scheme, read in
/// place in the usual case, by a general path otherwise), else the session's own `viewhost_session_s` cookie, else the
/// single `viewhost_session` cookie of earlier releases.
struct SessionTokenReadingTests {
    static func token(_ name: HTTPHeaderName, _ value: String) -> String? {
        FuzzEntryPoints.token(HTTPRequest(method: .get, target: "/v1/sessions/s/chat", headers: [name: value]))
    }

    @Test(arguments: [
        ("Bearer abc", "abc"), ("bEARER abc", "abc"),
        ("Bearer  abc", "abc"),  // two spaces: the general path, trimmed
        ("Bearer \u{301}abc", "\u{301}abc"),  // a combining mark first is part of the token, whatever it means
    ])
    func bearerTokens(header: String, expected: String) {
        #expect(Self.token(.authorization, header) == expected)
    }

    /// HeaderValuesFuzzer's input: a combining mark right after the scheme's space made `" \u{656}"` one
    /// Character, and the general path, splitting on Characters, did not see the space; read on bytes, both
    /// cases of the scheme give the same token.
    @Test func aCombiningMarkAfterTheSpaceDoesNotHideIt() {
        let value = "\u{656} \u{656}\\00"
        #expect(Self.token(.authorization, "Bearer " + value) == value)
        #expect(Self.token(.authorization, "bEARER " + value) == value)
        #expect(Self.token(.authorization, "Basic " + value) == nil)
    }

    /// The token for session `s` comes from its own cookie or the header, never from another session's cookie.
    @Test func eachSessionHasItsOwnCookie() {
        #expect(Self.token(.cookie, "viewhost_session_t=other; viewhost_session_s=mine") == "mine")
        #expect(Self.token(.cookie, "viewhost_session_t=other") == nil)
        #expect(Self.token(.cookie, "viewhost_session_s=mine; viewhost_session_s=later") == "mine")
        #expect(Self.token(.cookie, "viewhost_session=legacy; viewhost_session_s=mine") == "mine")
        #expect(Self.token(.cookie, "viewhost_session_s=mine; viewhost_session=legacy") == "mine")
        #expect(Self.token(.cookie, "viewhost_session_t=other; viewhost_session=legacy") == "legacy")
        #expect(Self.token(.cookie, "viewhost_held_s=1") == nil, "the page's marker is no token")
        let both = HTTPRequest(
            method: .get, target: "/v1/sessions/s/chat",
            headers: [.authorization: "Bearer header", .cookie: "viewhost_session_s=cookie"])
        #expect(FuzzEntryPoints.token(both) == "header")
    }

    @Test func theFirstSessionCookieWins() {
        #expect(Self.token(.cookie, "a=1; viewhost_session=abc; viewhost_session=def") == "abc")
        #expect(Self.token(.cookie, "viewhost_session = abc ") == "abc")
        #expect(Self.token(.cookie, "viewhost_session=\u{301}abc") == "\u{301}abc", "the = is seen on bytes")
        #expect(Self.token(.cookie, "=abc; viewhost_session") == nil)
    }
}
