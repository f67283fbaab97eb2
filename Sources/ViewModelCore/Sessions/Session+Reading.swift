import Foundation
import Synchronization
import ViewHostAPI

/// Reads: versions, snapshots, their cached representations, the data-flow log, and waiting for a change. Reads
/// take the lock only to pick up the newest cached value; they never wait behind queued events.
extension Session {
    /// The current version of each feature.
    public var versions: [String: Int] {
        shell.withLock { shell in
            Dictionary(uniqueKeysWithValues: shell.core.featureNames.compactMap { name in
                shell.core.version(of: name).map { (name, $0) }
            })
        }
    }

    /// The current version of `feature`, or nil when there is no such feature.
    public func version(of feature: String) -> Int? {
        shell.withLock { $0.core.version(of: feature) }
    }

    /// The newest session-wide sequence number.
    public var sequence: Int { shell.withLock { $0.core.sequence } }

    /// The session's value as it is now (for storing it, or for tests).
    public var core: SessionCore { shell.withLock { $0.core } }

    /// The newest snapshot of `key`'s feature with its version.
    public func viewModel<F: Feature>(of key: FeatureKey<F>) -> (version: Int, value: F.Snapshot)? {
        shell.withLock { shell in
            guard let version = shell.core.version(of: key.name), let state = shell.core.state(of: key) else {
                return nil
            }
            let settings = shell.core.settings
            let value = shell.caches.viewModel(of: key.name, version: version) { F.snapshot(of: state, settings: settings) }
            return (version, value as! F.Snapshot)  // the cache holds what this closure made for this feature
        }
    }

    /// The newest app-level representation of `feature` (such as its encoded JSON), made by `make` at most once
    /// per version; `make` runs outside the lock, so readers never hold up events.
    /// - Returns: The version, the sequence number of the step that produced it, and its representation; nil when
    ///   there is no such feature.
    public func representation<Value: Sendable>(
        of feature: String, make: (Int, any ViewModel) -> Value
    ) -> (version: Int, sequence: Int, value: Value)? {
        let current = shell.withLock { shell -> (Int, Int, Value?, (any ViewModel)?)? in
            guard let version = shell.core.version(of: feature),
                let sequence = shell.core.lastChangeSequence(of: feature)
            else { return nil }
            if let cached = shell.caches.representation(of: feature, version: version, as: Value.self) {
                return (version, sequence, cached, nil)
            }
            let core = shell.core
            let viewModel = shell.caches.viewModel(of: feature, version: version) {
                core.snapshot(of: feature)!.viewModel
            }
            return (version, sequence, nil, viewModel)
        }
        guard let (version, sequence, cached, viewModel) = current else { return nil }
        if let cached { return (version, sequence, cached) }
        let value = make(version, viewModel!)
        shell.withLock { $0.caches.keep(value, of: feature, version: version) }
        return (version, sequence, value)
    }

    /// The features changed after session sequence `sequence`, oldest change first, with the sequence of their
    /// latest change. A `sequence` this session never reached (a client from before a restart) counts as 0.
    public func features(changedAfter sequence: Int) -> [(feature: String, sequence: Int)] {
        shell.withLock { $0.core.features(changedAfter: sequence) }
    }

    /// The log entries after `sequence`, oldest first, and the oldest sequence still held.
    public func log(after sequence: Int) -> (entries: [LogEntry], oldest: Int?) {
        shell.withLock { shell in (shell.core.log.entries(after: sequence), shell.core.log.oldestSequence) }
    }

    /// Waits until `feature` has a version newer than `version`, or `timeout` passes; the session does not expire
    /// while it waits.
    /// - Returns: The newer version, or nil on timeout, cancellation or the session's end.
    public func waitForVersion(of feature: String, after version: Int, timeout: Duration) async -> Int? {
        hold()
        defer { release() }
        return await stream.wait(for: feature, after: version, timeout: timeout) { [weak self] in
            self?.version(of: feature)
        }
    }

    /// Calls `recorder` with every new snapshot of `key`'s feature, in order, under the session's lock (tests).
    public func record<F: Feature>(_ key: FeatureKey<F>, _ recorder: @escaping @Sendable (Int, F.Snapshot) -> Void) {
        shell.withLock { shell in
            shell.recorders[key.name, default: []].append { version, snapshot in
                if let snapshot = snapshot as? F.Snapshot { recorder(version, snapshot) }
            }
        }
    }
}
