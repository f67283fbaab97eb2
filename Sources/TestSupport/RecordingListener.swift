import ViewHostLocking
import ViewModelCore

/// Records every snapshot a feature of a session emits, in order, so a presentation test can assert the exact
/// sequence an event produced (the MVVM+C article's presentation tests; service-lifecycle's `MockService` shape).
/// Keep a reference for as long as you record: the session holds it weakly.
public final class RecordingListener<F: Feature>: Sendable {
    private let recorded = Locked<[(version: Int, snapshot: F.Snapshot)]>([])

    /// Starts recording `key` of `session`.
    public init(session: Session, feature key: FeatureKey<F>) {
        session.record(key) { [weak self] version, snapshot in
            self?.recorded.withLock { $0.append((version, snapshot)) }
        }
    }

    /// The snapshots recorded so far, oldest first.
    public var snapshots: [F.Snapshot] { recorded.withLock { $0.map(\.snapshot) } }

    /// The versions recorded so far, oldest first.
    public var versions: [Int] { recorded.withLock { $0.map(\.version) } }

    /// Returns the snapshots recorded since the last call, and forgets them.
    public func drain() -> [F.Snapshot] {
        recorded.withLock { recorded in
            defer { recorded.removeAll() }
            return recorded.map(\.snapshot)
        }
    }
}
