import HTTPCore
import Testing

/// Body framing (RFC 9112 §6) and chunked coding (§7.1): everything request smuggling relies on is refused.
extension HTTPRequestParserTests {
    private static let post = "POST /x HTTP/1.1\r\nHost: h\r\n"
    private static let chunked = post + "Transfer-Encoding: chunked\r\n\r\n"

    static let framingRejections: [Rejection] = [
        Rejection("gzip coding", post + "Transfer-Encoding: gzip\r\n\r\n", .unsupportedTransferEncoding, 501),
        Rejection(
            "gzip then chunked", post + "Transfer-Encoding: gzip, chunked\r\n\r\n", .unsupportedTransferEncoding, 501),
        Rejection(
            "gzip in a second field", post + "Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n",
            .unsupportedTransferEncoding, 501),
        Rejection(
            "Content-Length then Transfer-Encoding",
            post + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc",
            .contentLengthWithTransferEncoding, 400),
        Rejection(
            "Transfer-Encoding then Content-Length",
            post + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc",
            .contentLengthWithTransferEncoding, 400),
        Rejection(
            "two different Content-Length fields", post + "Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
            .conflictingContentLength, 400),
        Rejection(
            "differing Content-Length list", post + "Content-Length: 5, 6\r\n\r\nhello", .conflictingContentLength, 400),
        Rejection("plus sign", post + "Content-Length: +5\r\n\r\nhello", .invalidContentLength, 400),
        Rejection("negative", post + "Content-Length: -1\r\n\r\n", .invalidContentLength, 400),
        Rejection("hexadecimal", post + "Content-Length: 0x10\r\n\r\n", .invalidContentLength, 400),
        Rejection("space inside", post + "Content-Length: 5 5\r\n\r\nhello", .invalidContentLength, 400),
        Rejection("empty", post + "Content-Length:\r\n\r\n", .invalidContentLength, 400),
        Rejection("list of nothing", post + "Content-Length: ,\r\n\r\n", .invalidContentLength, 400),
        Rejection("decimal point", post + "Content-Length: 5.0\r\n\r\nhello", .invalidContentLength, 400),
        Rejection("nineteen digits", post + "Content-Length: 1000000000000000000\r\n\r\n", .invalidContentLength, 400),
        Rejection(
            "chunked in HTTP/1.0", "POST /x HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            .invalidTransferEncoding, 400),
        Rejection("chunked twice", post + "Transfer-Encoding: chunked, chunked\r\n\r\n", .invalidTransferEncoding, 400),
        Rejection(
            "chunked in two fields", post + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
            .invalidTransferEncoding, 400),
        Rejection("empty Transfer-Encoding", post + "Transfer-Encoding:\r\n\r\n", .invalidTransferEncoding, 400),
        Rejection("chunk size not hexadecimal", chunked + "zz\r\n", .invalidChunk, 400),
        Rejection("chunk size missing", chunked + "\r\n", .invalidChunk, 400),
        Rejection("chunk size with sign", chunked + "+5\r\nhello\r\n0\r\n\r\n", .invalidChunk, 400),
        Rejection("chunk size with two numbers", chunked + "5 6\r\nhello\r\n0\r\n\r\n", .invalidChunk, 400),
        Rejection("chunk size too many digits", chunked + "0000000000000001\r\nx\r\n0\r\n\r\n", .invalidChunk, 400),
        Rejection("chunk size ended by bare LF", chunked + "5\nhello\r\n0\r\n\r\n", .invalidChunk, 400),
        Rejection("control byte in an extension", chunked + "5;a\u{1}\r\nhello\r\n0\r\n\r\n", .invalidChunk, 400),
        Rejection("chunk data too long", chunked + "3\r\nabcd\r\n0\r\n\r\n", .invalidChunk, 400),
        Rejection("chunk data ended by bare LF", chunked + "3\r\nabc\n0\r\n\r\n", .invalidChunk, 400),
        Rejection("trailer without colon", chunked + "0\r\nNoColon\r\n\r\n", .invalidHeaderName, 400),
        Rejection("trailer with obs-fold", chunked + "0\r\nX: a\r\n b\r\n\r\n", .obsoleteLineFolding, 400),
        Rejection("trailer with control byte", chunked + "0\r\nX: a\u{1}\r\n\r\n", .invalidHeaderValue, 400),
        Rejection("trailer ended by bare CR", chunked + "0\r\nX: a\rY: b\r\n\r\n", .invalidLineEnding, 400),
        Rejection("trailer ended by bare LF", chunked + "0\r\nX: a\nY: b\r\n\r\n", .invalidHeaderValue, 400),
    ]

    @Test(arguments: framingRejections)
    func ambiguousFramingIsRejected(_ rejection: Rejection) {
        Self.expectRejected(rejection)
    }

    /// RFC 9110 §8.6: a list of identical values, or repeated identical fields, is one length; empty list
    /// elements do not count (RFC 9110 §5.6.1).
    @Test(arguments: [["5, 5"], ["5", "5"], ["05"], [", ,5"], ["5,"], ["5 ,\t5"]])
    func contentLengthListOfOneValueIsThatLength(values: [String]) throws {
        let fields = values.map { "Content-Length: \($0)\r\n" }.joined()
        let outcome = Self.feed(Self.post + fields + "\r\nhelloGET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(outcome.requests.map(\.body) == [Array("hello".utf8), []])
        #expect(outcome.error == nil)
    }

    @Test func zeroContentLengthIsARequestWithoutBody() throws {
        let outcome = Self.feed(Self.post + "Content-Length: 0\r\n\r\n")
        #expect(try #require(outcome.onlyRequest).body.isEmpty)
        #expect(outcome.heads.isEmpty, "no head is reported when no body follows")
    }

    /// The body of one request never leaks into the next: the length decides, and what follows is a new head.
    @Test func bytesAfterTheBodyStartTheNextRequest() {
        let outcome = Self.feed(Self.post + "Content-Length: 2\r\n\r\nhiXYZ / HTTP/1.1\r\n\r\n")
        #expect(outcome.requests.map(\.body) == [Array("hi".utf8)])
        #expect(outcome.error == .invalidHost, "XYZ starts the second request, which has no Host")
    }
}
