import HTTPCore
import Testing

/// When a response is gzipped, and which media types are worth it.
struct ResponseCompressionTests {
    @Test(
        arguments: [
            ("text/plain", true),
            ("text/html; charset=utf-8", true),
            ("TEXT/CSS", true),
            ("text/event-stream", true),
            ("application/json", true),
            ("application/json; charset=UTF-8", true),
            ("Application/JSON", true),
            ("application/problem+json", true),
            ("application/javascript", true),
            ("application/xml", true),
            ("image/svg+xml", true),
            ("application/vnd.api+json", true),
            ("application/atom+xml;charset=utf-8", true),
            ("application/x-ndjson", true),
            ("image/png", false),
            ("image/jpeg", false),
            ("video/mp4", false),
            ("audio/mpeg", false),
            ("application/zip", false),
            ("application/gzip", false),
            ("application/octet-stream", false),
            ("application/pdf", false),
            ("multipart/form-data; boundary=x", false),
            ("json", false),
            ("text/", false),
            ("/json", false),
            ("", false),
            (nil, false),
        ] as [(String?, Bool)])
    func compressibleTypes(contentType: String?, expected: Bool) {
        #expect(ResponseCompression.isCompressible(contentType: contentType) == expected)
    }

    /// One response and a change to it, with the decision expected.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var coding: ContentCoding? = .gzip
        var method: HTTPMethod = .get
        var status: HTTPStatus = .ok
        var hasContentEncoding = false
        var contentType: String? = "application/json"
        var contentLength: Int? = 2000
        var threshold = 1024
        var expected: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "large JSON, gzip accepted", expected: true),
        Case(name: "identity negotiated", coding: .identity, expected: false),
        Case(name: "nothing acceptable", coding: nil, expected: false),
        Case(name: "POST response", method: .post, expected: true),
        Case(name: "HEAD", method: .head, expected: false),
        Case(name: "201", status: .created, expected: true),
        Case(name: "404 problem", status: .notFound, contentType: "application/problem+json", expected: true),
        Case(name: "100", status: .continue, expected: false),
        Case(name: "204", status: .noContent, expected: false),
        Case(name: "304", status: .notModified, expected: false),
        Case(name: "206", status: HTTPStatus(code: 206, reasonPhrase: "Partial Content"), expected: false),
        Case(name: "already encoded", hasContentEncoding: true, expected: false),
        Case(name: "PNG", contentType: "image/png", expected: false),
        Case(name: "no content type", contentType: nil, expected: false),
        Case(name: "below threshold", contentLength: 1023, expected: false),
        Case(name: "at threshold", contentLength: 1024, expected: true),
        Case(name: "threshold 0, empty body", contentLength: 0, threshold: 0, expected: true),
        Case(name: "event stream", contentType: "text/event-stream", contentLength: nil, expected: true),
        Case(name: "octet stream", contentType: "application/octet-stream", contentLength: nil, expected: false),
        Case(name: "stream to HEAD", method: .head, contentLength: nil, expected: false),
    ]

    @Test(arguments: cases)
    func shouldCompressFollowsTheRules(testCase: Case) {
        let decision = ResponseCompression.shouldCompress(
            coding: testCase.coding, method: testCase.method, status: testCase.status,
            hasContentEncoding: testCase.hasContentEncoding, contentType: testCase.contentType,
            contentLength: testCase.contentLength, threshold: testCase.threshold)
        #expect(decision == testCase.expected)
    }
}
