import ViewHostAPI

/// One version of a feature kept for readers: a reader is served the newest *durable* version, and while newer
/// inputs wait for their commit the core has moved past it. A version a reader waits for is kept as it was (its
/// state held by a snapshot function), so it can still be built once it is the durable one, whatever came after.
struct KeptVersion: Sendable {
    /// The feature's version.
    let version: Int
    /// The session-wide sequence number of the step that produced it.
    let sequence: Int
    /// Builds its snapshot, for any viewer (`make()`: the owner's view).
    let make: SnapshotBuilder
}
