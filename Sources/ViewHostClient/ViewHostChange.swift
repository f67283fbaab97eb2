import Foundation
import ViewHostAPI

/// One change of a feature, as the change stream delivers it: the feature's new snapshot, whole.
///
/// ```swift
/// for try await change in session.changes() where change.feature == ChatSnapshot.feature {
///     let chat = try change.decode(ChatSnapshot.self)
/// }
/// ```
public struct ViewHostChange: Sendable, Equatable {
    /// The feature that changed, such as `chat`.
    public let feature: String
    /// The feature's version after the change.
    public let version: Int
    /// The session-wide sequence number of the change when it came over the event stream (the `id:`), nil when
    /// it came from a long poll.
    public let sequence: Int?
    /// The snapshot's JSON, as served.
    public let json: Data

    /// Creates a change.
    public init(feature: String, version: Int, sequence: Int?, json: Data) {
        self.feature = feature
        self.version = version
        self.sequence = sequence
        self.json = json
    }

    /// The snapshot as its typed view model, such as `ChatSnapshot`.
    public func decode<Snapshot: FeatureSnapshot>(_ type: Snapshot.Type) throws(ViewHostError) -> Versioned<Snapshot> {
        guard feature == Snapshot.feature else {
            throw ViewHostError(
                kind: .invalidRequest, title: "wrong feature",
                detail: "this change is of '\(feature)', not '\(Snapshot.feature)'")
        }
        return try Versioned.decode(type, from: json, status: 200)
    }
}
