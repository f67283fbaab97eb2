import HTTPCore
import ViewHostLocking

/// One version of a feature's snapshot, encoded once and shared by every reader of that version.
final class EncodedSnapshot: Sendable {
    let version: Int
    /// `"7"`: the version, as a strong validator (equal versions mean equal bytes).
    let etag: String
    /// The JSON, keys sorted.
    let body: [UInt8]

    /// The gzip of `body`, made by the first reader that accepts gzip and then shared (once per version).
    private let gzipCache = Locked<[UInt8]?>(nil)

    init(version: Int, body: [UInt8]) {
        self.version = version
        self.etag = "\"\(version)\""
        self.body = body
    }

    /// `body` gzipped, compressed at most once.
    var gzipBody: [UInt8] {
        gzipCache.withLock { cached in
            if let cached { return cached }
            let made = Gzip.compress(body)
            cached = made
            return made
        }
    }
}
