import HTTPCore
import Testing

/// A request's `Content-Encoding` undone before its body is parsed.
struct RequestBodyDecodingTests {
    private static let json = Array(#"{"event":"creatingChat","contact":"Ann"}"#.utf8)

    @Test(arguments: [nil, "", "identity", " Identity\t", "IDENTITY"] as [String?])
    func noCodingReturnsTheBodyAsIs(contentEncoding: String?) throws {
        // Not gzip, so decoding would fail: the body must pass through untouched.
        let decoded = try RequestBodyDecoding.decode(contentEncoding: contentEncoding, body: Self.json, limit: 10)
        #expect(decoded == Self.json)
    }

    @Test(arguments: ["gzip", "GZIP", "x-gzip", "X-GZIP", " gzip "])
    func gzipIsInflated(contentEncoding: String) throws {
        let body = Gzip.compress(Self.json)
        #expect(try RequestBodyDecoding.decode(contentEncoding: contentEncoding, body: body, limit: 1000) == Self.json)
    }

    @Test(arguments: [
        ("br", "br"),
        ("deflate", "deflate"),
        ("compress", "compress"),
        ("zstd", "zstd"),
        ("gzip, br", "gzip, br"),
        ("gzip, gzip", "gzip, gzip"),
        ("identity, gzip", "identity, gzip"),
        (" Gzip;q=1 ", "Gzip;q=1"),
    ])
    func otherCodingsAreUnsupported(contentEncoding: String, reported: String) {
        #expect(throws: CompressionError.unsupportedCoding(reported)) {
            let body = Gzip.compress(Self.json)
            return try RequestBodyDecoding.decode(contentEncoding: contentEncoding, body: body, limit: 1000)
        }
    }

    @Test func inflatedBodyOverTheLimitIsTooLarge() {
        let body = Gzip.compress([UInt8](repeating: 0x20, count: 100_000))
        #expect(throws: CompressionError.tooLarge(limit: 65_536)) {
            try RequestBodyDecoding.decode(contentEncoding: "gzip", body: body, limit: 65_536)
        }
    }

    @Test func gzipThatIsNotGzipIsCorrupt() {
        #expect {
            try RequestBodyDecoding.decode(contentEncoding: "gzip", body: Self.json, limit: 1000)
        } throws: { error in
            guard let error = error as? CompressionError, case .corrupt = error else { return false }
            return true
        }
    }

    @Test func emptyGzipBodyIsCorrupt() {
        #expect {
            try RequestBodyDecoding.decode(contentEncoding: "gzip", body: [], limit: 1000)
        } throws: { error in
            guard let error = error as? CompressionError, case .corrupt = error else { return false }
            return true
        }
    }
}
