import ViewModelCore

/// The versions held of a session's features, for `GET /v1/sessions/{id}/versions`.
struct VersionList: Sendable {
    /// One version made after the oldest checkpoint, with the log entry of the event that made it.
    struct Entry: Sendable {
        let feature: String
        let version: Int
        /// The journal record that made it.
        let record: Int
        let cause: LogEntry
    }

    /// Each feature's oldest version held.
    let oldest: [String: Int]
    /// Each feature's newest version.
    let latest: [String: Int]
    /// Every version after the oldest, oldest first.
    let versions: [Entry]

    /// The list of `features` alone (what a shared session's member may see).
    func keeping(_ features: [String]) -> VersionList {
        VersionList(
            oldest: oldest.filter { features.contains($0.key) }, latest: latest.filter { features.contains($0.key) },
            versions: versions.filter { features.contains($0.feature) })
    }
}
