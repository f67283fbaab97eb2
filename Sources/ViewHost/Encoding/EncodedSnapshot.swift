import HTTPCore
import ViewHostJSON
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
    /// Patches to this version, by the version they start from (every stream and poll of the session that holds
    /// the same version shares one).
    private let patches = Locked<[Int: [UInt8]]>([:])

    /// `body` read for diffing, made by the first patch this version is a side of and kept for the next (the
    /// newer side of one patch is the older side of the next): a snapshot is read once, not twice.
    private let text = Locked<IndexedJSON?>(nil)

    /// Patches kept per version: most readers hold the version just before.
    static let maxPatches = 4

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

    /// The JSON Patch (RFC 6902) that turns `base` (an earlier version of the same feature) into this version: a
    /// `test` of the base's version first, so a client that applies it to another version fails instead of
    /// going wrong. Made once per base version, from the two bodies; nil when they do not parse (never for bodies
    /// this server encoded): then the whole snapshot goes instead.
    func patch(from base: EncodedSnapshot) -> [UInt8]? {
        if let made = patches.withLock({ $0[base.version] }) { return made }
        guard let before = base.readText(), let after = readText(after: before),
            let operations = try? JSONPatch.diff(from: before, to: after)
        else { return nil }
        let made = JSONPatch.json([.test(path: "/version", value: .number(Double(base.version)))] + operations)
        patches.withLock { patches in
            if patches.count >= Self.maxPatches, let oldest = patches.keys.min() { patches[oldest] = nil }
            patches[base.version] = made
        }
        return made
    }

    /// `body` read for diffing, once (against `older`, an earlier version's text, when there is one: only what
    /// changed since is read); nil when it is not JSON (never for a body this server encoded).
    private func readText(after older: IndexedJSON? = nil) -> IndexedJSON? {
        if let read = text.withLock({ $0 }) { return read }
        let read: IndexedJSON
        do throws(JSONParser.Failure) {
            if let older { read = try IndexedJSON(body, after: older) } else { read = try IndexedJSON(body) }
        } catch {
            return nil
        }
        text.withLock { $0 = read }
        return read
    }
}
