import HTTPCore
import Testing

/// Field lines (RFC 9112 §5, RFC 9110 §5.5), line endings, Host and Expect.
extension HTTPRequestParserTests {
    static let fieldRejections: [Rejection] = [
        Rejection("space in a field name", "GET / HTTP/1.1\r\nHost: h\r\nBad Name: v\r\n\r\n", .invalidHeaderName, 400),
        Rejection("space before the colon", "GET / HTTP/1.1\r\nHost: h\r\nX-A : v\r\n\r\n", .invalidHeaderName, 400),
        Rejection("tab before the colon", "GET / HTTP/1.1\r\nHost: h\r\nX-A\t: v\r\n\r\n", .invalidHeaderName, 400),
        Rejection(
            "parenthesis in a field name", "GET / HTTP/1.1\r\nHost: h\r\nX(a): v\r\n\r\n", .invalidHeaderName, 400),
        Rejection("non-ASCII field name", "GET / HTTP/1.1\r\nHost: h\r\nN\u{E4}me: v\r\n\r\n", .invalidHeaderName, 400),
        Rejection("empty field name", "GET / HTTP/1.1\r\nHost: h\r\n: v\r\n\r\n", .invalidHeaderName, 400),
        Rejection("field line without colon", "GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n", .invalidHeaderName, 400),
        Rejection(
            "control byte in a value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\u{1}b\r\n\r\n", .invalidHeaderValue, 400),
        Rejection("NUL in a value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\u{0}b\r\n\r\n", .invalidHeaderValue, 400),
        Rejection("DEL in a value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\u{7F}\r\n\r\n", .invalidHeaderValue, 400),
        Rejection("escape in a value", "GET / HTTP/1.1\r\nHost: h\r\nX: \u{1B}[31m\r\n\r\n", .invalidHeaderValue, 400),
        Rejection("bare CR in a value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\rb\r\n\r\n", .invalidHeaderValue, 400),
        Rejection(
            "bare CR at the end of a value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\r\n\r\n", .invalidHeaderValue, 400),
        // Were a bare CR a line end, this would hide a Content-Length from a front end that treats it as data.
        Rejection(
            "bare CR hiding a field", "POST / HTTP/1.1\r\nHost: h\r\nX: a\r_Content-Length: 5\r\n\r\nhello",
            .invalidHeaderValue, 400),
        Rejection(
            "obs-fold with a space", "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n\r\n", .obsoleteLineFolding, 400),
        Rejection("obs-fold with a tab", "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n\tb\r\n\r\n", .obsoleteLineFolding, 400),
        Rejection("whitespace before the first field", "GET / HTTP/1.1\r\n Host: h\r\n\r\n", .obsoleteLineFolding, 400),
        Rejection("bare LF after the request line", "GET / HTTP/1.1\nHost: h\r\n\r\n", .invalidLineEnding, 400),
        Rejection("bare LF after a field", "GET / HTTP/1.1\r\nHost: h\nX: 1\r\n\r\n", .invalidLineEnding, 400),
        Rejection("bare LF as the empty line", "GET / HTTP/1.1\r\nHost: h\r\n\n", .invalidLineEnding, 400),
        Rejection("bare LF before the request line", "\nGET / HTTP/1.1\r\nHost: h\r\n\r\n", .invalidLineEnding, 400),
        Rejection("HTTP/1.1 without Host", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", .invalidHost, 400),
        Rejection("two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .invalidHost, 400),
        Rejection("two identical Host fields", "GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n", .invalidHost, 400),
        Rejection("HTTP/1.0 with two Host fields", "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", .invalidHost, 400),
        Rejection(
            "unknown expectation", "POST / HTTP/1.1\r\nHost: h\r\nExpect: something-else\r\nContent-Length: 1\r\n\r\nx",
            .unsupportedExpectation, 417),
        Rejection("empty expectation", "GET / HTTP/1.1\r\nHost: h\r\nExpect:\r\n\r\n", .unsupportedExpectation, 417),
    ]

    @Test(arguments: fieldRejections)
    func invalidFieldIsRejected(_ rejection: Rejection) {
        Self.expectRejected(rejection)
    }

    @Test func fieldLookupIgnoresCaseAndKeepsEveryValue() throws {
        let raw = "GET / HTTP/1.1\r\nhOsT: h\r\nX-Tag: a\r\nx-tag:b\r\nX-TAG: \t c, d \t\r\nEmpty:\r\n\r\n"
        let request = try #require(Self.feed(raw).onlyRequest)
        #expect(request.headers[.host] == "h")
        #expect(request.headers["x-tag"] == "a")
        #expect(request.headers.values(for: "X-Tag") == ["a", "b", "c, d"])
        #expect(request.headers["Empty"] == "")
        #expect(request.headers["Missing"] == nil)
    }

    @Test func expectContinueIsMatchedIgnoringCase() {
        let outcome = Self.feed(["POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\n"])
        #expect(outcome.heads == [true])
        #expect(outcome.error == nil)
    }
}
