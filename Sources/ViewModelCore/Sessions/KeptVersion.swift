import ViewHostAPI

/// One version of a feature kept for readers: a reader is served the newest *durable* version, and while newer
/// inputs wait for their commit the core has moved past it. A version a reader waits for is kept as it was (its
/// state held by a snapshot function), so it can still be built once it is the durable one, whatever came after.
struct KeptVersion: Sendable {
    /// The feature's version.
    let version: Int
    /// The session-wide sequence number of the step that produced it.
    let sequence: Int
    /// Builds its snapshot.
    let make: @Sendable () -> any ViewModel
}

extension Session.Shell {
    /// Keeps the current version of every feature a reader waits for, before an input may change it (called under
    /// the session's lock before each input is applied; nothing to do while no reader waits, which is nearly
    /// always).
    mutating func keepVersionsReadersWaitFor() {
        guard !readersWaiting.isEmpty else { return }
        for feature in readersWaiting.keys {
            guard let current = core.keptVersion(of: feature), kept[feature]?.last?.version != current.version
            else { continue }
            kept[feature, default: []].append(current)
        }
    }

    /// Forgets the kept versions older than each feature's newest durable one (after a commit).
    mutating func dropKeptVersionsOlderThanCommitted() {
        for (feature, versions) in kept {
            guard let committed = committedVersion(of: feature) else { continue }
            let newer = versions.filter { $0.version >= committed }
            kept[feature] = newer.isEmpty ? nil : newer
        }
    }

    /// The kept version `version` of `feature`, if it was kept.
    func keptVersion(of feature: String, version: Int) -> KeptVersion? {
        kept[feature]?.first { $0.version == version }
    }
}
