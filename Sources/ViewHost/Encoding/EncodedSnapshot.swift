import HTTPCore
import ViewHostJSON
import ViewHostLocking
import ViewModelCore

/// One version of a feature's snapshot, encoded once and shared by every reader of that version (a member's own view
/// of a feature that depends on its viewer: by that member's readers).
final class EncodedSnapshot: Sendable {
    let version: Int
    /// Whose own view this is: a member's, of a feature whose snapshot depends on its viewer; nil for the snapshot
    /// every other reader shares (the owner's).
    let viewer: Viewer?
    /// `"7"`: the version, as a strong validator (equal versions mean equal bytes); `"7.bea1"` for member `bea1`'s own
    /// view (two viewers' bytes of one version differ, so their tags do).
    let etag: String
    /// The JSON, keys sorted.
    let body: [UInt8]

    /// What readers of this version make from `body` once and share, each made by the first reader that needs it.
    private struct Made {
        /// The gzip of `body` (once per version).
        var gzip: [UInt8]?
        /// Patches to this version, by the version they start from (every stream and poll of the session that
        /// holds the same version shares one).
        var patches: [Int: [UInt8]] = [:]
        /// `body` read for diffing, made by the first patch this version is a side of and kept for the next (the
        /// newer side of one patch is the older side of the next): a snapshot is read once, not twice.
        var text: IndexedJSON?
        /// The server-sent event that carries this version whole, with the sequence of its change as its id.
        var frame: (sequence: Int, feature: String, bytes: [UInt8])?
    }

    /// One lock for all of them: a version costs one allocation for what its readers share, not one per kind.
    private let made = Locked(Made())

    /// Patches kept per version: most readers hold the version just before.
    static let maxPatches = 4

    init(version: Int, body: [UInt8], viewer: Viewer? = nil) {
        self.version = version
        self.viewer = viewer
        self.etag = Self.etag(version: version, viewer: viewer)
        self.body = body
    }

    /// The entity tag of `viewer`'s own view of `version` (nil: the shared one): `"7"`, `"7.bea1"`. A participant's
    /// id is letters and digits, so the tag needs no escaping, and its version still leads it.
    static func etag(version: Int, viewer: Viewer?) -> String {
        guard let viewer else { return "\"\(version)\"" }
        return "\"\(version).\(viewer.participant)\""
    }

    /// `body` gzipped, compressed at most once.
    var gzipBody: [UInt8] {
        made.withLock { made in
            if let cached = made.gzip { return cached }
            let compressed = Gzip.compress(body)
            made.gzip = compressed
            return compressed
        }
    }

    /// The server-sent event that carries this version whole: `id: SEQUENCE`, `event: FEATURE`, `data:` the body
    /// (compact JSON, never a newline inside). Made by the first stream that sends it, then shared by every stream
    /// of the session that sends the same version.
    func eventFrame(feature: String, sequence: Int) -> [UInt8] {
        made.withLock { made in
            if let frame = made.frame, frame.sequence == sequence, frame.feature == feature { return frame.bytes }
            var bytes = Array("id: \(sequence)\nevent: \(feature)\ndata: ".utf8)
            bytes.reserveCapacity(bytes.count + body.count + 2)
            bytes.append(contentsOf: body)
            bytes.append(contentsOf: "\n\n".utf8)
            made.frame = (sequence, feature, bytes)
            return bytes
        }
    }

    /// The JSON Patch (RFC 6902) that turns `base` (an earlier version of the same feature) into this version: a
    /// `test` of the base's version first, so a client that applies it to another version fails instead of
    /// going wrong. Made once per base version, from the two bodies; nil when they do not parse (never for bodies
    /// this server encoded) or `base` is another viewer's view: then the whole snapshot goes instead.
    func patch(from base: EncodedSnapshot) -> [UInt8]? {
        // A patch runs between two views of the same viewer: another's is no base for it.
        guard base.viewer == viewer else { return nil }
        if let cached = made.withLock({ $0.patches[base.version] }) { return cached }
        guard let before = base.readText(), let after = readText(after: before),
            let operations = try? JSONPatch.diff(from: before, to: after)
        else { return nil }
        let patch = JSONPatch.json([.test(path: "/version", value: .number(Double(base.version)))] + operations)
        made.withLock { made in
            if made.patches.count >= Self.maxPatches, let oldest = made.patches.keys.min() {
                made.patches[oldest] = nil
            }
            made.patches[base.version] = patch
        }
        return patch
    }

    /// `body` read for diffing, once (against `older`, an earlier version's text, when there is one: only what
    /// changed since is read); nil when it is not JSON (never for a body this server encoded).
    private func readText(after older: IndexedJSON? = nil) -> IndexedJSON? {
        if let read = made.withLock({ $0.text }) { return read }
        let read: IndexedJSON
        do throws(JSONParser.Failure) {
            if let older { read = try IndexedJSON(body, after: older) } else { read = try IndexedJSON(body) }
        } catch {
            return nil
        }
        made.withLock { $0.text = read }
        return read
    }
}
