import Foundation
import ViewHostJSON

/// A JSON Patch (RFC 6902) the server sent instead of a whole snapshot, applied to the snapshot the client holds.
/// The result must be the version the server named; anything else (a patch that does not parse or apply, another
/// version) is a mismatch, and the caller reads the whole snapshot instead.
enum SnapshotPatch {
    /// The media type of a patch.
    static let mediaType = "application/json-patch+json"

    /// `base` (a snapshot's JSON) with `patch` (a JSON array of operations) applied; nil on any mismatch: the patch
    /// does not parse or apply (its first operation tests the version it starts from), or the result is not
    /// `version`.
    static func apply(_ patch: Data, to base: Data, expecting version: Int) -> Data? {
        guard let document = try? JSONParser.parse(Array(base), maxDepth: 256),
            let operations = try? JSONPatch.operations(JSONParser.parse(Array(patch), maxDepth: 256))
        else { return nil }
        return apply(operations, to: document, expecting: version)
    }

    /// `base` with `operations` applied; nil on any mismatch.
    static func apply(_ operations: [JSONPatch.Operation], to base: ViewHostJSON.JSONValue, expecting version: Int)
        -> Data?
    {
        guard let result = try? JSONPatch.apply(operations, to: base), result["version"] == .number(Double(version))
        else { return nil }
        return Data(result.json)
    }

    /// Whether `contentType` is a patch's.
    static func isPatch(_ contentType: String?) -> Bool {
        contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == mediaType
    }
}
