/// One version of a feature's snapshot, encoded once and shared by every reader of that version.
final class EncodedSnapshot: Sendable {
    let version: Int
    /// `"7"`: the version, as a strong validator (equal versions mean equal bytes).
    let etag: String
    /// The JSON, keys sorted.
    let body: [UInt8]

    init(version: Int, body: [UInt8]) {
        self.version = version
        self.etag = "\"\(version)\""
        self.body = body
    }
}
