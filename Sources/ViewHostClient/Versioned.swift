import Foundation
import ViewHostAPI

/// A feature's snapshot with the version it was served at. Members of the snapshot read through it
/// (`chat.badge`), so it stands in for the snapshot itself.
@dynamicMemberLookup
public struct Versioned<Snapshot: FeatureSnapshot>: Sendable, Equatable {
    /// The feature's version (its `ETag`); equal versions are identical snapshots.
    public let version: Int
    /// The snapshot's view model.
    public let value: Snapshot

    /// Creates a versioned snapshot.
    public init(version: Int, value: Snapshot) {
        self.version = version
        self.value = value
    }

    /// A member of the snapshot.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Snapshot, Member>) -> Member {
        value[keyPath: keyPath]
    }

    private struct Envelope: Decodable {
        let version: Int
    }

    /// Decodes a served snapshot document (`version` beside the view model's members).
    static func decode(_ type: Snapshot.Type, from json: Data, status: Int) throws(ViewHostError) -> Versioned {
        do {
            let decoder = JSONDecoder()
            return Versioned(
                version: try decoder.decode(Envelope.self, from: json).version,
                value: try decoder.decode(Snapshot.self, from: json))
        } catch {
            throw .invalidResponse(
                "the \(Snapshot.feature) snapshot is not what the API promises: \(HTTPTransport.words(for: error))",
                status: status)
        }
    }
}
