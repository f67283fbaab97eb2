import HTTPCore
import Testing

/// Each limit of `HTTPLimits` and the status every `HTTPParserError` answers with.
extension HTTPRequestParserTests {
    /// `limits` allows a 64-byte request line, 256 header bytes, 8 fields and a 32-byte body.
    static let limitRejections: [Rejection] = [
        Rejection(
            "request line one byte over", "GET /\(String(repeating: "a", count: 51)) HTTP/1.1\r\nHost: h\r\n\r\n",
            .requestLineTooLong, 414),
        Rejection(
            "request line over, no line end yet", "GET /\(String(repeating: "a", count: 100))", .requestLineTooLong, 414
        ),
        Rejection(
            "header section over", "GET / HTTP/1.1\r\nHost: h\r\nX-Big: \(String(repeating: "b", count: 300))\r\n\r\n",
            .headerSectionTooLarge, 431),
        Rejection(
            "header section over, no empty line yet",
            "GET / HTTP/1.1\r\nHost: h\r\nX-Big: \(String(repeating: "b", count: 300))", .headerSectionTooLarge, 431),
        Rejection(
            "one field too many", "GET / HTTP/1.1\r\nHost: h\r\n" + (1...8).map { "X-\($0): v\r\n" }.joined() + "\r\n",
            .tooManyHeaderFields, 431),
        Rejection(
            "declared body over", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 33\r\n\r\n", .bodyTooLarge, 413),
        Rejection(
            "declared body far over", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 999999999999999999\r\n\r\n",
            .bodyTooLarge, 413),
        Rejection(
            "one chunk over", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n21\r\n", .bodyTooLarge,
            413),
        Rejection(
            "chunks growing over",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n\(String(repeating: "c", count: 16))\r\n"
                + "10\r\n\(String(repeating: "c", count: 16))\r\n1\r\n",
            .bodyTooLarge, 413),
        Rejection(
            "trailer section over",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: \(String(repeating: "t", count: 300))",
            .headerSectionTooLarge, 431),
        Rejection(
            "one trailer too many",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
                + (0...8).map { "T-\($0): v\r\n" }.joined() + "\r\n",
            .tooManyHeaderFields, 431),
    ]

    @Test(arguments: limitRejections)
    func requestOverALimitIsRejected(_ rejection: Rejection) {
        Self.expectRejected(rejection)
    }

    /// A request line, header section, field count and body each exactly at `limits`.
    static let requestAtEveryLimit: String = {
        let line = "GET /\(String(repeating: "a", count: 50)) HTTP/1.1"
        let fields = "Host: h\r\n" + (1...5).map { "X-\($0): v\r\n" }.joined() + "Content-Length: 32\r\n"
        let padding = String(repeating: "p", count: 256 - fields.utf8.count - "X-Pad: \r\n".utf8.count)
        return "\(line)\r\n\(fields)X-Pad: \(padding)\r\n\r\n" + String(repeating: "z", count: 32)
    }()

    @Test func requestAtEveryLimitIsAccepted() throws {
        let raw = Self.requestAtEveryLimit
        let line = try #require(raw.split(separator: "\r\n").first)
        #expect(line.utf8.count == 64)
        let head = try #require(raw.split(separator: "\r\n\r\n").first)
        #expect(head.utf8.count + 2 - (line.utf8.count + 2) == 256, "header bytes: every field line with its CRLF")
        let request = try #require(Self.feed(raw).onlyRequest)
        #expect(request.body.count == 32)
        #expect(Array(request.headers).count == 8)
    }

    /// A declared length over the limit is refused from the head alone, before any body byte is read.
    @Test func declaredBodyOverTheLimitIsRejectedBeforeTheBodyArrives() {
        var parser = HTTPRequestParser(limits: Self.limits)
        let head = Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1000000\r\n\r\n".utf8)
        #expect(throws: HTTPParserError.bodyTooLarge) {
            try head.withUnsafeBytes { _ = try parser.parse($0) }
        }
    }

    /// A chunk that would carry the body over the limit is refused at its size line, before its data.
    @Test func chunkOverTheLimitIsRejectedAtItsSize() {
        let outcome = Self.feed([
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n",
            "1f\r\n\(String(repeating: "d", count: 31))\r\n",
            "2\r\n",
        ])
        #expect(outcome.heads == [false])
        #expect(outcome.error == .bodyTooLarge)
    }

    static let statuses: [(HTTPParserError, Int)] = [
        (.requestLineTooLong, 414),
        (.headerSectionTooLarge, 431),
        (.tooManyHeaderFields, 431),
        (.bodyTooLarge, 413),
        (.malformedRequestLine, 400),
        (.invalidTarget, 400),
        (.unsupportedVersion, 505),
        (.invalidLineEnding, 400),
        (.invalidHeaderName, 400),
        (.invalidHeaderValue, 400),
        (.obsoleteLineFolding, 400),
        (.invalidHost, 400),
        (.invalidContentLength, 400),
        (.conflictingContentLength, 400),
        (.contentLengthWithTransferEncoding, 400),
        (.unsupportedTransferEncoding, 501),
        (.invalidTransferEncoding, 400),
        (.invalidChunk, 400),
        (.unsupportedExpectation, 417),
        (.unsupportedMethod, 501),
    ]

    @Test(arguments: statuses)
    func parserErrorAnswersWithItsStatus(error: HTTPParserError, code: Int) {
        #expect(error.status.code == code)
        #expect(error.description.hasSuffix("."), "a full sentence for the problem detail")
    }
}
