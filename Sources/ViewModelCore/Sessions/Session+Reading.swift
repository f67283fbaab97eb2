import Foundation
import Synchronization
import ViewHostAPI
import ViewHostLocking

/// Reads: versions, snapshots, their cached representations, the data-flow log, and waiting for a change. Reads
/// take the lock only to pick up the newest cached value; they never wait behind queued events. Versions and
/// representations are the newest durable ones.
extension Session {
    /// The newest durable version of each feature.
    public var versions: [String: Int] {
        shell.withLock { shell in
            Dictionary(uniqueKeysWithValues: shell.core.featureNames.map { ($0, shell.committedVersion(of: $0) ?? 1) })
        }
    }

    /// The newest durable version of `feature`, or nil when there is no such feature.
    public func version(of feature: String) -> Int? {
        shell.withLock { $0.committedVersion(of: feature) }
    }

    /// The newest session-wide sequence number.
    public var sequence: Int { shell.withLock { $0.core.sequence } }

    /// The session's value as it is now (for storing it, or for tests).
    public var core: SessionCore { shell.withLock { $0.core } }

    /// The past the session keeps itself (without a journal, when the environment keeps history in memory), as it
    /// is now; nil when a store keeps it, or nothing does.
    public var heldHistory: HeldHistory? { shell.withLock { $0.history } }

    /// The number of the last input that is durable (with a journal) or applied (without), and the value then
    /// when that is the current one (nil while later inputs wait for their commit).
    public var committedPoint: (number: Int, core: SessionCore?) {
        shell.withLock { shell in (shell.pipeline.committedNumber, shell.pipeline.isSettled ? shell.core : nil) }
    }

    /// The newest snapshot of `key`'s feature with its version.
    /// Built outside the session's lock (from the state as it was), so a long chat's builders never hold up its
    /// events, and cached for its version.
    public func viewModel<F: Feature>(of key: FeatureKey<F>) -> (version: Int, value: F.Snapshot)? {
        let found = shell.withLock {
            shell -> (version: Int, cached: F.Snapshot?, state: F.State, settings: SessionSettings)? in
            guard let version = shell.core.version(of: key.name), let state = shell.core.state(of: key) else {
                return nil
            }
            return (
                version, shell.caches.viewModel(of: key.name, version: version) as? F.Snapshot, state,
                shell.core.settings
            )
        }
        guard let found else { return nil }
        if let cached = found.cached { return (found.version, cached) }
        let value = F.snapshot(of: found.state, settings: found.settings)
        shell.withLock { $0.caches.keepViewModel(value, of: key.name, version: found.version) }
        return (found.version, value)
    }

    /// The newest durable version's app-level representation of `feature` (such as its encoded JSON) as `viewer`
    /// sees it, made by `make` at most once per version; the view model and `make` run outside the lock, so readers
    /// never hold up events.
    ///
    /// Every viewer of a feature that does not depend on its viewer shares the owner's representation, made once
    /// per version. A member's view of a ``ViewerDependentFeature`` is made for it on each call and not kept here
    /// (a reader that needs it again keeps it: a stream keeps the one it sent last as its next patch's base), so a
    /// session with a thousand members holds no thousand copies.
    /// - Returns: The version, the sequence number of the step that produced it, and its representation; `pending`
    ///   when the newest durable version was never made and the state has moved past it (then
    ///   ``waitForRepresentation(of:for:make:)`` waits until it can be made); `missing` when there is no such
    ///   feature.
    public func representation<Value: Sendable>(
        of feature: String, for viewer: Viewer = .owner, make: (Int, any ViewModel) -> Value
    ) -> Representation<Value> {
        // The lock's work is done by functions that are not generic: called from another module this one runs
        // unspecialized, and each generic type it touched inside (a tuple, an enum of `Value`) was a lookup in the
        // runtime's metadata caches on every read.
        switch source(of: feature, for: viewer, as: Value.self) {
        case .missing:
            return .missing
        case .pending:
            return .pending
        case .cached(let version, let sequence, let value):
            guard let value = value as? Value else { return .pending }  // Never: `source` checked its type.
            return .ready(version: version, sequence: sequence, value: value)
        case .viewer(let kept):
            return .ready(
                version: kept.version, sequence: kept.sequence, value: make(kept.version, kept.make(for: viewer)))
        case .kept(let kept):
            let value = make(kept.version, kept.make())
            keep(value, viewModel: nil, of: feature, kept: kept)
            return .ready(version: kept.version, sequence: kept.sequence, value: value)
        case .current(let kept, let cached):
            // The view model is built outside the lock, from the state as it was (held by the kept version), so a
            // long chat's builders never hold up the session's events.
            let viewModel = cached ?? kept.make()
            let value = make(kept.version, viewModel)
            keep(value, viewModel: cached == nil ? viewModel : nil, of: feature, kept: kept)
            return .ready(version: kept.version, sequence: kept.sequence, value: value)
        }
    }

    /// Where the representation of `feature` for `viewer` comes from, as the lock finds it: a cached one only when
    /// it is of `type` (another type, another reader's, is made again).
    private func source(of feature: String, for viewer: Viewer, as type: Any.Type) -> RepresentationSource {
        shell.withLock { shell -> RepresentationSource in
            guard let committed = shell.committedVersion(of: feature), let version = shell.core.version(of: feature),
                shell.core.lastChangeSequence(of: feature) != nil
            else { return .missing }
            if !viewer.isOwner, shell.core.dependsOnViewer(feature) {
                // This viewer's own view: built from the durable version's state, never cached.
                let kept =
                    committed == version
                    ? shell.core.keptVersion(of: feature) : shell.pipeline.keptVersion(of: feature, version: committed)
                return kept.map { .viewer($0) } ?? .pending
            }
            if let cached = shell.caches.representation(of: feature, version: committed),
                Swift.type(of: cached.value) == type
            {
                return .cached(version: committed, sequence: cached.sequence, value: cached.value)
            }
            if committed == version {
                guard let kept = shell.core.keptVersion(of: feature), kept.version == committed else { return .pending }
                return .current(kept, shell.caches.viewModel(of: feature, version: kept.version))
            }
            return shell.pipeline.keptVersion(of: feature, version: committed).map(RepresentationSource.kept)
                ?? .pending
        }
    }

    /// Caches a representation made outside the lock, and the view model it was made from when that is new.
    private func keep(_ value: any Sendable, viewModel: (any ViewModel)?, of feature: String, kept: KeptVersion) {
        shell.withLock { shell in
            if let viewModel { shell.caches.keepViewModel(viewModel, of: feature, version: kept.version) }
            shell.caches.keep(value, of: feature, version: kept.version, sequence: kept.sequence)
        }
    }

    /// ``representation(of:for:make:)`` once it can be made: when the newest durable version of `feature` was never
    /// made and the core has moved past it (writes to the session follow each other), waits for the commit of the
    /// feature's newest change. While a reader waits, each version of the feature is kept before an input changes
    /// it, so after that one commit the newest durable version is the core's own or a kept one: a read waits for
    /// one commit at most, however fast writes come, and never fails because of them.
    /// - Returns: `ready`, or `missing` when there is no such feature; never `pending`.
    /// - Throws: ``SessionError/unavailable`` when the store could not keep what the read waited for, and
    ///   ``SessionError/ended(_:)`` when the session ended: this copy is gone (load the session again).
    public func waitForRepresentation<Value: Sendable>(
        of feature: String, for viewer: Viewer = .owner, make: (Int, any ViewModel) -> Value
    ) async throws(SessionError) -> Representation<Value> {
        shell.withLock { $0.pipeline.readerWaits(for: feature) }
        defer { shell.withLock { $0.pipeline.readerDone(with: feature) } }
        while true {
            let found = representation(of: feature, for: viewer, make: make)
            guard case .pending = found else { return found }
            let ticket = try shell.withLock { shell throws(SessionError) -> CommitTicket? in
                if let end = shell.end { throw .ended(end) }
                // Nil when the commit landed since the look above: look again.
                return shell.pipeline.ticket(forNewestChangeOf: feature)
            }
            do throws(SessionError) {
                try await ticket?.value()
            } catch {
                // The store could not keep a newer input and this copy closed itself; the newest durable version
                // is still here if it was kept while this reader waited (it is durable: only commits move it).
                let durable = representation(of: feature, for: viewer, make: make)
                guard case .ready = durable else { throw error }
                return durable
            }
        }
    }

    /// Whether a reader waits in ``waitForRepresentation(of:for:make:)`` for `feature` (tests).
    package func isWaitedOn(_ feature: String) -> Bool {
        shell.withLock { $0.pipeline.isWaitedOn(feature) }
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

    /// Whether `feature`'s snapshot depends on who is looking (it is a ``ViewerDependentFeature``): then each
    /// member reads its own view, and the owner's is the one every reader of any other feature shares.
    public func dependsOnViewer(_ feature: String) -> Bool {
        shell.withLock { $0.core.dependsOnViewer(feature) }
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

/// Where a representation comes from, as the session's lock finds it.
private enum RepresentationSource {
    /// No such feature.
    case missing
    /// The durable version was never made and the state moved past it.
    case pending
    /// Cached for the durable version.
    case cached(version: Int, sequence: Int, value: any Sendable)
    /// The core's current version is the durable one: made from it (with its view model, when cached).
    case current(KeptVersion, (any ViewModel)?)
    /// A kept version is the durable one: made from it.
    case kept(KeptVersion)
    /// A member's view of a feature that depends on its viewer, of this version (the durable one): made for it, not
    /// cached.
    case viewer(KeptVersion)
}

/// A feature's representation as a reader gets it.
public enum Representation<Value: Sendable>: Sendable {
    /// The newest durable version's.
    case ready(version: Int, sequence: Int, value: Value)
    /// Not made yet for the newest durable version, and the state moved past it: ask again once committed.
    case pending
    /// No such feature.
    case missing

    /// The representation when ready.
    public var ready: (version: Int, sequence: Int, value: Value)? {
        if case .ready(let version, let sequence, let value) = self { return (version, sequence, value) }
        return nil
    }
}
