import ViewHostLocking
import ViewModelCore

/// Past snapshots already encoded, by session, feature, version and viewer (a member's own view of a feature that
/// depends on its viewer is kept apart from the shared one), least recently used first out once their
/// bytes pass the bound: a past version never changes, so it is rebuilt once while it is asked for. The newest
/// versions a patch-reading client holds are kept here too (it asks for a patch from them next).
final class PastSnapshotCache: Sendable {
    private struct Key: Hashable {
        let session: SessionID
        let feature: String
        let version: Int
        /// Whose own view (nil: the shared one).
        let viewer: Viewer?
    }

    private struct Entries {
        var snapshots: [Key: (snapshot: EncodedSnapshot, used: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let entries = Locked(Entries())
    /// The most bytes of snapshot bodies kept.
    let capacity: Int

    init(capacity: Int = 32 << 20) {
        self.capacity = capacity
    }

    /// The snapshot of `feature` at `version` in `session` (`viewer`'s own view, when not nil), if kept.
    func snapshot(session: SessionID, feature: String, version: Int, viewer: Viewer? = nil) -> EncodedSnapshot? {
        entries.withLock { entries in
            let key = Key(session: session, feature: feature, version: version, viewer: viewer)
            guard let entry = entries.snapshots[key] else { return nil }
            entries.clock += 1
            entries.snapshots[key] = (entry.snapshot, entries.clock)
            return entry.snapshot
        }
    }

    /// Keeps `snapshot` of `feature` in `session` (under the viewer it was made for), dropping the least recently
    /// used past the bound.
    func keep(_ snapshot: EncodedSnapshot, session: SessionID, feature: String) {
        entries.withLock { entries in
            let key = Key(session: session, feature: feature, version: snapshot.version, viewer: snapshot.viewer)
            entries.clock += 1
            if let old = entries.snapshots.updateValue((snapshot, entries.clock), forKey: key) {
                entries.bytes -= old.snapshot.body.count
            }
            entries.bytes += snapshot.body.count
            guard entries.bytes > capacity else { return }
            // Over the bound: the oldest half goes at once, so a full cache sorts once per many insertions.
            let byAge = entries.snapshots.sorted { $0.value.used < $1.value.used }
            for (key, entry) in byAge where entries.bytes > capacity / 2 {
                entries.snapshots[key] = nil
                entries.bytes -= entry.snapshot.body.count
            }
        }
    }
}
