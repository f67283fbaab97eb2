import HTTPCore
import Testing

/// The request line (RFC 9112 §3): `method SP request-target SP HTTP-version`, nothing more or less.
extension HTTPRequestParserTests {
    static let requestLineRejections: [Rejection] = [
        Rejection("missing version", "GET /\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("method only", "GET\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("missing target", "GET HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("empty method", " / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("single token", "X\r\n\r\n", .malformedRequestLine, 400),
        Rejection("two spaces after the method", "GET  / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("two spaces before the version", "GET /  HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("trailing space", "GET / HTTP/1.1 \r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("space inside the target", "GET /a b HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("tab separators", "GET\t/\tHTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("non-token method", "G(T / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("non-ASCII target", "GET /caf\u{E9} HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("control byte in the target", "GET /a\u{1}b HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("lower-case version", "GET / http/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("version without minor", "GET / HTTP/1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("two-digit major", "GET / HTTP/11.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("junk after the version", "GET / HTTP/1.1x\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
        Rejection("HTTP/2.0", "GET / HTTP/2.0\r\nHost: h\r\n\r\n", .unsupportedVersion, 505),
        Rejection("HTTP/1.2", "GET / HTTP/1.2\r\nHost: h\r\n\r\n", .unsupportedVersion, 505),
        Rejection("HTTP/0.9", "GET / HTTP/0.9\r\nHost: h\r\n\r\n", .unsupportedVersion, 505),
        Rejection("CONNECT", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n", .unsupportedMethod, 501),
        Rejection("fragment in the path", "GET /a#top HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 400),
        Rejection("fragment in the query", "GET /a?b=c#top HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 400),
        Rejection("asterisk with GET", "GET * HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 400),
        Rejection("asterisk with more", "OPTIONS *x HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 400),
        Rejection("relative target", "GET a/b HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 400),
        Rejection(
            "authority-form outside CONNECT", "GET example.com:80 HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 400),
        Rejection("absolute form without authority", "GET http:// HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 400),
        Rejection(
            "absolute form with another scheme", "GET ftp://h/a HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget, 400),
    ]

    @Test(arguments: requestLineRejections)
    func malformedRequestLineIsRejected(_ rejection: Rejection) {
        Self.expectRejected(rejection)
    }

    /// Methods are case-sensitive tokens (RFC 9110 §9.1): unknown ones are parsed and left to the router.
    @Test(arguments: ["get", "PROPFIND", "M-SEARCH"])
    func unknownMethodTokenIsParsedAsIs(method: String) throws {
        let request = try #require(Self.feed("\(method) / HTTP/1.1\r\nHost: h\r\n\r\n").onlyRequest)
        #expect(request.method.rawValue == method)
        #expect(request.method != .get)
    }
}
