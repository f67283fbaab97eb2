/// A typed handle on one feature of a session: its name and its model type.
public struct FeatureKey<Model: FeatureModel>: Sendable, Hashable {
    /// The feature's name in URLs and snapshots, such as `chat`.
    public let name: String

    /// Creates a key.
    public init(_ name: String) {
        self.name = name
    }
}
