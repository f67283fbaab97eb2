import HTTPCore
import Testing

/// The request parser fed raw `\r\n` strings the way a connection feeds it: every unconsumed byte, from the
/// first one, each time more arrive. Rejections are in `+RequestLine`, `+Fields`, `+Framing` and `+Limits`;
/// split reads in `+SplitReads`.
struct HTTPRequestParserTests {
    /// Small limits so every one of them is cheap to cross.
    static let limits = HTTPLimits(maxRequestLineBytes: 64, maxHeaderBytes: 256, maxHeaderCount: 8, maxBodyBytes: 32)

    @Test func getWithHeadersIsParsed() throws {
        let outcome = Self.feed(
            "GET /items/7?sort=name&q=a+b HTTP/1.1\r\nHost: example.com\r\nAccept:  text/plain \r\n\r\n")
        let request = try #require(outcome.onlyRequest)
        #expect(request.method == .get)
        #expect(request.version == .http1_1)
        #expect(request.target == "/items/7?sort=name&q=a+b")
        #expect(request.path == "/items/7")
        #expect(request.query == "sort=name&q=a+b")
        #expect(request.queryValue("q") == "a b")
        #expect(request.headers[.host] == "example.com")
        #expect(request.headers["accept"] == "text/plain", "OWS around a value is not part of it (RFC 9112 §5)")
        #expect(request.body.isEmpty)
        #expect(request.keepAlive)
    }

    @Test func postWithContentLengthReadsExactlyThatBody() throws {
        let outcome = Self.feed("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc")
        let request = try #require(outcome.onlyRequest)
        #expect(request.method == .post)
        #expect(request.body == Array("abc".utf8))
        #expect(outcome.leftover == 0)
    }

    @Test func obsTextInAValueIsAccepted() throws {
        let outcome = Self.feed("GET / HTTP/1.1\r\nHost: h\r\nX-Name: caf\u{E9}\r\n\r\n")
        #expect(try #require(outcome.onlyRequest).headers["X-Name"] == "caf\u{E9}")
    }

    @Test func http10WithoutHostIsAccepted() throws {
        let request = try #require(Self.feed("GET / HTTP/1.0\r\n\r\n").onlyRequest)
        #expect(request.version == .http1_0)
        #expect(request.headers[.host] == nil)
    }

    /// RFC 9112 §9.3: 1.1 persists unless `close`; 1.0 persists only with `keep-alive`.
    @Test(
        arguments: [
            ("HTTP/1.1", [], true),
            ("HTTP/1.1", ["close"], false),
            ("HTTP/1.1", ["CLOSE"], false),
            ("HTTP/1.1", ["foo, close"], false),
            ("HTTP/1.1", ["foo", "close"], false),
            ("HTTP/1.1", ["closed"], true),
            ("HTTP/1.1", ["keep-alive"], true),
            ("HTTP/1.0", [], false),
            ("HTTP/1.0", ["keep-alive"], true),
            ("HTTP/1.0", ["Keep-Alive, foo"], true),
            ("HTTP/1.0", ["keep-alive, close"], false),
            ("HTTP/1.0", ["keep-alive", "close"], false),
        ] as [(String, [String], Bool)])
    func keepAliveFollowsVersionAndConnection(version: String, connection: [String], keepAlive: Bool) throws {
        let fields = connection.map { "Connection: \($0)\r\n" }.joined()
        let request = try #require(Self.feed("GET / \(version)\r\nHost: h\r\n\(fields)\r\n").onlyRequest)
        #expect(request.keepAlive == keepAlive)
    }

    @Test func absoluteFormTargetGivesPathAndQuery() throws {
        let request = try #require(Self.feed("GET http://example.com/a?b=c HTTP/1.1\r\nHost: h\r\n\r\n").onlyRequest)
        #expect(request.target == "http://example.com/a?b=c")
        #expect(request.path == "/a")
        #expect(request.query == "b=c")
    }

    @Test(
        arguments: [
            ("GET http://example.com HTTP/1.1", "/", nil),
            ("GET HTTPS://Example.com:8443/x/y HTTP/1.1", "/x/y", nil),
            ("GET http://example.com?x=1 HTTP/1.1", "/", "x=1"),
        ] as [(String, String, String?)])
    func absoluteFormVariantsAreAccepted(line: String, path: String, query: String?) throws {
        let request = try #require(Self.feed("\(line)\r\nHost: h\r\n\r\n").onlyRequest)
        #expect(request.path == path)
        #expect(request.query == query)
    }

    @Test func optionsAsteriskIsAccepted() throws {
        let request = try #require(Self.feed("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n").onlyRequest)
        #expect(request.method == .options)
        #expect(request.target == "*")
    }

    /// RFC 9112 §2.2: empty lines before the request line are ignored.
    @Test func leadingEmptyLinesAreSkipped() throws {
        let outcome = Self.feed("\r\n\r\nGET /a HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try #require(outcome.onlyRequest).path == "/a")
        #expect(outcome.leftover == 0)
    }

    @Test func chunkedBodyWithExtensionsAndTrailersIsDecoded() throws {
        let raw =
            "POST /upload HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n6 ; quoted=\"a b\"\r\n world\r\nA\r\n0123456789\r\n"
            + "0\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n"
        let request = try #require(Self.feed(raw).onlyRequest)
        #expect(request.body == Array("hello world0123456789".utf8))
        #expect(request.trailers["x-checksum"] == "abc")
        #expect(request.trailers.values(for: "X-Other") == ["1"])
        #expect(request.headers[.transferEncoding] == "chunked")
    }

    @Test func chunkedBodyWithoutTrailersHasNone() throws {
        let raw = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        let request = try #require(Self.feed(raw).onlyRequest)
        #expect(request.body == Array("abc".utf8))
        #expect(request.trailers.isEmpty)
    }

    /// RFC 9110 §10.1.1: only an HTTP/1.1 client waits for `100 Continue`.
    @Test(arguments: [("HTTP/1.1", true), ("HTTP/1.0", false)])
    func expectContinueIsReportedWithTheHead(version: String, expectsContinue: Bool) {
        let head = "POST /x \(version)\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"
        let outcome = Self.feed([head, "abc"])
        #expect(outcome.heads == [expectsContinue])
        #expect(outcome.requests.map(\.body) == [Array("abc".utf8)])
    }

    @Test func headWithoutBodyBytesYetIsReportedBeforeTheBody() {
        let outcome = Self.feed(["POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\n"])
        #expect(outcome.heads == [false])
        #expect(outcome.requests.isEmpty)
        #expect(outcome.error == nil)
    }

    @Test func bodySplitOverSeveralReadsIsJoined() throws {
        let outcome = Self.feed(["POST /x HTTP/1.1\r\nHost: h\r\nContent-", "Length: 10\r\n\r\nabc", "def", "g", "hij"])
        #expect(try #require(outcome.onlyRequest).body == Array("abcdefghij".utf8))
        #expect(outcome.leftover == 0)
    }

    @Test func pipelinedRequestsInOneBufferAreParsedInOrder() {
        let raw =
            "GET /1 HTTP/1.1\r\nHost: h\r\n\r\n"
            + "POST /2 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi"
            + "POST /3 HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n"
            + "GET /4 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
            + "GET /5 HTT"
        let outcome = Self.feed(raw)
        #expect(outcome.requests.map(\.path) == ["/1", "/2", "/3", "/4"])
        #expect(outcome.requests.map(\.body) == [[], Array("hi".utf8), Array("x".utf8), []])
        #expect(outcome.requests.map(\.keepAlive) == [true, true, true, false])
        #expect(outcome.leftover == "GET /5 HTT".utf8.count, "an incomplete head is left to the caller")
        #expect(outcome.error == nil)
    }

    @Test func parserReportsWhetherARequestIsInProgress() throws {
        var parser = HTTPRequestParser(limits: Self.limits)
        #expect(parser.isIdle)
        let head = Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n".utf8)
        let partial = try head.prefix(5).withUnsafeBytes { try parser.parse($0) }
        #expect(partial.consumed == 0)
        #expect(!parser.isIdle)
        #expect(!parser.isReadingBody)
        let whole = try head.withUnsafeBytes { try parser.parse($0) }
        #expect(whole.consumed == head.count)
        #expect(parser.isReadingBody)
        let body = try Array("ok".utf8).withUnsafeBytes { try parser.parse($0) }
        guard case .request = body.event else { Issue.record("expected the request, got \(body.event)"); return }
        #expect(parser.isIdle)
    }
}

// MARK: - Feeding

extension HTTPRequestParserTests {
    /// What feeding bytes through a parser gave: the finished requests, the heads reported before their bodies,
    /// the error that stopped it, and how many bytes the caller still holds.
    struct Outcome {
        var requests: [HTTPRequest] = []
        /// `expectsContinue` of each `.headReceived`, in order.
        var heads: [Bool] = []
        var error: HTTPParserError?
        var leftover = 0

        /// The one request when exactly one was parsed and nothing failed.
        var onlyRequest: HTTPRequest? {
            requests.count == 1 && error == nil ? requests[0] : nil
        }
    }

    static func feed(_ raw: String, limits: HTTPLimits = HTTPRequestParserTests.limits) -> Outcome {
        feed([raw], limits: limits)
    }

    static func feed(_ reads: [String], limits: HTTPLimits = HTTPRequestParserTests.limits) -> Outcome {
        feed(reads.map { Array($0.utf8) }, limits: limits)
    }

    /// Feeds `reads` as the connection does: appends each read to the unconsumed bytes, then parses from the
    /// first unconsumed byte until the parser consumes nothing or the bytes run out.
    static func feed(_ reads: [[UInt8]], limits: HTTPLimits = HTTPRequestParserTests.limits) -> Outcome {
        var parser = HTTPRequestParser(limits: limits)
        var outcome = Outcome()
        var pending: [UInt8] = []
        for read in reads {
            pending.append(contentsOf: read)
            var offset = 0
            parsing: while offset < pending.count {
                let attempt = pending.withUnsafeBytes { bytes in
                    Result { () throws(HTTPParserError) in
                        try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                    }
                }
                let result: (event: HTTPRequestParser.Event, consumed: Int)
                switch attempt {
                case .success(let success):
                    result = success
                case .failure(let error):
                    outcome.error = error
                    outcome.leftover = pending.count - offset
                    return outcome
                }
                #expect((0...(pending.count - offset)).contains(result.consumed), "consumed more than it was given")
                offset += result.consumed
                switch result.event {
                case .needMoreData:
                    if result.consumed == 0 { break parsing }
                case .headReceived(let expectsContinue):
                    #expect(result.consumed > 0, "a head is never empty")
                    outcome.heads.append(expectsContinue)
                case .request(let request):
                    #expect(result.consumed > 0, "a request is never empty")
                    outcome.requests.append(request)
                }
            }
            pending.removeFirst(offset)
        }
        outcome.leftover = pending.count
        return outcome
    }
}

// MARK: - Rejections

extension HTTPRequestParserTests {
    /// A request the parser must refuse, with the error and the status it answers with.
    struct Rejection: Sendable, CustomTestStringConvertible {
        var name: String
        var raw: String
        var error: HTTPParserError
        var status: Int

        init(_ name: String, _ raw: String, _ error: HTTPParserError, _ status: Int) {
            self.name = name
            self.raw = raw
            self.error = error
            self.status = status
        }

        var testDescription: String { name }
    }

    /// Feeds `rejection.raw` in one read and expects exactly its error, with its status, and no request.
    static func expectRejected(_ rejection: Rejection, limits: HTTPLimits = HTTPRequestParserTests.limits) {
        let outcome = feed(rejection.raw, limits: limits)
        #expect(outcome.requests.isEmpty, "\(rejection.name): no request is produced")
        #expect(outcome.error == rejection.error, "\(rejection.name)")
        #expect(outcome.error?.status.code == rejection.status, "\(rejection.name)")
    }
}
