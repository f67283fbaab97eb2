/// Size limits the parser enforces on every request; each one has its own status when exceeded.
public struct HTTPLimits: Sendable, Hashable {
    /// The longest request line in bytes, CRLF excluded; longer gives `414 URI Too Long`.
    public var maxRequestLineBytes: Int
    /// The largest header section in bytes (request line excluded); larger gives `431`.
    public var maxHeaderBytes: Int
    /// The most header fields (trailers counted separately); more gives `431`.
    public var maxHeaderCount: Int
    /// The largest body in bytes after chunked decoding; larger gives `413` without reading it all.
    public var maxBodyBytes: Int

    /// Creates limits; the defaults are the documented ones.
    public init(
        maxRequestLineBytes: Int = 8 * 1024, maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 100,
        maxBodyBytes: Int = 1024 * 1024
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}
