import HTTPCore
import Testing

/// Error messages are full sentences, for logs and problem details.
struct CompressionErrorTests {
    @Test(arguments: [
        (CompressionError.tooLarge(limit: 1024), "The decompressed content is larger than the limit of 1024 bytes."),
        (.corrupt("incorrect header check"), "The gzip data is corrupt: incorrect header check."),
        (.unsupportedCoding("br"), "The content coding 'br' is not supported; only gzip is."),
        (.zlib("inflateInit2: out of memory"), "zlib failed: inflateInit2: out of memory."),
    ])
    func descriptionIsASentence(error: CompressionError, description: String) {
        #expect(error.description == description)
    }
}
