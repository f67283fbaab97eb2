import HTTPCore
import Testing

/// TCP delivers bytes in arbitrary pieces: the parse must not depend on where a read ends.
extension HTTPRequestParserTests {
    static let splitSamples: [Sample] = [
        Sample(
            "GET with headers",
            "GET /items/7?sort=name HTTP/1.1\r\nHost: example.com\r\nAccept: text/plain\r\nX-Empty:\r\n\r\n"),
        Sample(
            "POST with Content-Length",
            "POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\nhello world"),
        Sample(
            "chunked POST with trailers",
            "POST /up HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;ext=1\r\nhello\r\n6 \r\n world\r\n0\r\nX-Sum: 42\r\nX-More: a, b\r\n\r\n"
        ),
        Sample(
            "pipelined pair",
            "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nPOST /2 HTTP/1.0\r\nContent-Length: 3\r\nConnection: keep-alive\r\n\r\nabc"
        ),
        Sample("leading empty lines", "\r\n\r\nGET /after-empty-lines HTTP/1.1\r\nHost: h\r\n\r\n"),
        Sample("request at every limit", requestAtEveryLimit),
    ]

    static let splitRejections: [Rejection] = [
        Rejection(
            "CL with TE", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc",
            .contentLengthWithTransferEncoding, 400),
        Rejection(
            "bare CR in a value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\r_Content-Length: 5\r\n\r\n", .invalidHeaderValue,
            400),
        Rejection("bare LF", "GET / HTTP/1.1\r\nHost: h\nX: 1\r\n\r\n", .invalidLineEnding, 400),
        Rejection(
            "request line too long", "GET /\(String(repeating: "a", count: 60)) HTTP/1.1\r\n\r\n", .requestLineTooLong,
            414),
        Rejection(
            "bad chunk", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n", .invalidChunk,
            400),
        Rejection(
            "obs-fold after an empty line prefix", "\r\nGET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n\r\n",
            .obsoleteLineFolding, 400),
    ]

    @Test(arguments: splitSamples)
    func requestSplitInTwoAtEveryByteParsesTheSame(_ sample: Sample) {
        let (name, bytes) = (sample.name, Array(sample.raw.utf8))
        let whole = Self.feed([bytes])
        #expect(whole.error == nil && !whole.requests.isEmpty, "\(name) parses in one read")
        let expected = whole.requests.map(ParsedRequest.init)
        for split in 0...bytes.count {
            let outcome = Self.feed([Array(bytes[..<split]), Array(bytes[split...])])
            #expect(outcome.requests.map(ParsedRequest.init) == expected, "\(name) split at \(split)")
            #expect(outcome.error == nil, "\(name) split at \(split)")
            #expect(outcome.leftover == 0, "\(name) split at \(split)")
        }
    }

    @Test(arguments: splitSamples)
    func requestFedOneByteAtATimeParsesTheSame(_ sample: Sample) {
        let bytes = Array(sample.raw.utf8)
        let expected = Self.feed([bytes]).requests.map(ParsedRequest.init)
        let outcome = Self.feed(bytes.map { [$0] })
        #expect(outcome.requests.map(ParsedRequest.init) == expected)
        #expect(outcome.error == nil)
        #expect(outcome.leftover == 0)
    }

    /// Found by `Fuzz/run.sh`, minimised: a header section of exactly `maxHeaderBytes` was refused when the CR
    /// of the empty line arrived without its LF, and accepted in one read.
    @Test func headAtTheHeaderLimitIsAcceptedWhenItsLastLineFeedComesLater() {
        let limits = HTTPLimits(maxRequestLineBytes: 24, maxHeaderBytes: 48, maxHeaderCount: 3, maxBodyBytes: 16)
        let bytes = Array("T / HTTP/1.1\r\nHost: h\r\nTransf````````keep-aliveding: chunSed\r\n\r\n".utf8)
        #expect(Self.feed([bytes], limits: limits).requests.count == 1)
        #expect(Self.feed([Array(bytes.dropLast()), [0x0A]], limits: limits).requests.count == 1)
        #expect(Self.feed(bytes.map { [$0] }, limits: limits).requests.count == 1)
    }

    @Test(arguments: splitRejections)
    func rejectionDoesNotDependOnWhereReadsEnd(_ rejection: Rejection) {
        let bytes = Array(rejection.raw.utf8)
        Self.expectRejected(rejection)
        for split in 0...bytes.count {
            let outcome = Self.feed([Array(bytes[..<split]), Array(bytes[split...])])
            #expect(outcome.error == rejection.error, "\(rejection.name) split at \(split)")
        }
        #expect(Self.feed(bytes.map { [$0] }).error == rejection.error, "\(rejection.name) one byte at a time")
    }
}

extension HTTPRequestParserTests {
    /// A raw request with a name, which test output shows instead of the bytes.
    struct Sample: Sendable, CustomTestStringConvertible {
        var name: String
        var raw: String

        init(_ name: String, _ raw: String) {
            self.name = name
            self.raw = raw
        }

        var testDescription: String { name }
    }

    /// The observable parts of a request, for comparing two parses.
    struct ParsedRequest: Equatable {
        var method: String
        var version: HTTPVersion
        var target: String
        var path: String
        var query: String?
        var headers: [HTTPField]
        var body: [UInt8]
        var trailers: [HTTPField]
        var keepAlive: Bool

        init(_ request: HTTPRequest) {
            method = request.method.rawValue
            version = request.version
            target = request.target
            path = request.path
            query = request.query
            headers = Array(request.headers)
            body = request.body
            trailers = Array(request.trailers)
            keepAlive = request.keepAlive
        }
    }
}
