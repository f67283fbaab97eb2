import Foundation

/// A feature's snapshot as served, untyped: for features the client has no type for, and for tools that print
/// the JSON (the `viewhost client` command).
public struct RawSnapshot: Sendable, Equatable {
    /// The feature, such as `chat`.
    public let feature: String
    /// The feature's version.
    public let version: Int
    /// The `ETag` it was served with (`"7"`, or `W/"7"` when it came gzipped).
    public let etag: String
    /// The snapshot document, as served.
    public let json: Data
}
