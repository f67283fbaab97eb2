import Foundation
import HTTPCore
import Logging
import ViewHostAPI
import ViewHostLocking
import ViewModelCore

/// Sessions' pasts as clients see them: a feature's snapshot as it was at any version held, rebuilt by replay from
/// the nearest checkpoint (the store's history, or the session's own in memory) and cached; the list of versions
/// held; and the journal export. Every call here may block (a store's read, a replay of up to a checkpoint
/// interval of inputs), so routes run them with ``OffLoop``.
final class SessionArchive: Sendable {
    /// The durable store; nil: sessions keep their history in memory.
    let storage: (any SessionStorage)?
    /// Past snapshots, encoded.
    let snapshots = PastSnapshotCache()
    /// The value where the last rebuild of each session stopped: the next version asked for is often a little
    /// later (a slider moved on), and replay goes on from there.
    private let cursors = Locked<[SessionID: (cursor: HistoryCursor, used: UInt64)]>([:])
    /// Values a store kept at checkpoints, decoded, by session and number: a slider moving back meets the same
    /// checkpoint again, and decoding a session's whole value costs more than replaying from it.
    private let checkpointCores = Locked<[CheckpointKey: (core: SessionCore, used: UInt64)]>([:])
    private let cursorClock = Locked<UInt64>(0)

    private struct CheckpointKey: Hashable {
        let session: SessionID
        let number: Int
    }

    /// Decoded checkpoint values kept at most.
    static let maxCheckpointCores = 32
    private let logger: Logger

    /// Cursors kept at most.
    static let maxCursors = 64
    /// Records read per round trip.
    static let page = 256

    init(storage: (any SessionStorage)?, logger: Logger) {
        self.storage = storage
        self.logger = logger
    }

    /// Where `session`'s past is read from: its store, else its own memory (nil: nothing is kept).
    func source(of session: Session) -> (any SessionHistoryReading)? {
        storage ?? session.heldHistory
    }

    // MARK: - Past versions

    /// The snapshot of `feature` as `session` served it at `version`, encoded as it was: `viewer`'s own view when not
    /// nil (a member of a feature whose snapshot depends on its viewer), else the one every other reader shares.
    /// - Throws: `AppError`: `versionNotReached` (404) for a version after the newest durable one,
    ///   `versionNotHeld` (410) for one older than the history kept, `storageUnavailable` (503) when the history
    ///   cannot be read.
    func snapshot(of session: Session, feature: String, version: Int, viewer: Viewer? = nil) throws(AppError)
        -> EncodedSnapshot
    {
        let latest = session.version(of: feature) ?? 0
        guard version <= latest else { throw .versionNotReached(feature: feature, version: version, latest: latest) }
        if let cached = snapshots.snapshot(session: session.id, feature: feature, version: version, viewer: viewer) {
            return cached
        }
        // The newest version: the shared one is cached by the session; a member's own is made now (from the state,
        // not replayed).
        if version == latest,
            let current = SnapshotRoutes.encodedSnapshot(of: session, feature: feature, viewer: viewer).ready?.value,
            current.version == version
        {
            return current
        }
        guard let source = source(of: session) else {
            throw .versionNotHeld(feature: feature, version: version, oldest: latest)
        }
        // Compaction may drop what was listed a moment before: read again, a few times.
        for attempt in 1...3 {
            do throws(RebuildFailure) {
                let viewModel = try rebuild(
                    feature, at: version, for: viewer ?? .owner, of: session.id, from: source, latest: latest)
                let snapshot = SnapshotEncoder.encode(
                    feature: feature, version: version, viewModel: viewModel, sessionID: session.id, viewer: viewer)
                snapshots.keep(snapshot, session: session.id, feature: feature)
                return snapshot
            } catch {
                switch error {
                case .notHeld(let oldest): throw .versionNotHeld(feature: feature, version: version, oldest: oldest)
                case .history(.gap) where attempt < 3: continue
                case .history, .storage: break
                }
                logger.error(
                    "history of a session cannot be rebuilt",
                    metadata: [
                        "session": "\(session.id)", "feature": "\(feature)", "version": "\(version)",
                        "cause": "\(error)",
                    ])
                throw .storageUnavailable
            }
        }
        throw .storageUnavailable
    }

    /// Why a past version was not rebuilt.
    private enum RebuildFailure: Error, CustomStringConvertible {
        /// The version is older than the oldest held, `oldest`.
        case notHeld(oldest: Int)
        case history(HistoryError)
        case storage(StorageError)

        var description: String {
            switch self {
            case .notHeld(let oldest): "not held (the oldest is \(oldest))"
            case .history(let error): "\(error)"
            case .storage(let error): "\(error)"
            }
        }
    }

    /// The view model of `feature` at `version` as `viewer` sees it, replayed from the nearest checkpoint (or from
    /// where the last rebuild of the session stopped, when that is nearer).
    private func rebuild(
        _ feature: String, at version: Int, for viewer: Viewer, of id: SessionID,
        from source: any SessionHistoryReading, latest: Int
    ) throws(RebuildFailure) -> any ViewModel {
        let checkpoints = try Self.read { () throws(StorageError) in try source.checkpoints(of: id) }
        guard let first = checkpoints.first, let oldest = first.versions[feature] else {
            throw .notHeld(oldest: latest)
        }
        guard version >= oldest else { throw .notHeld(oldest: oldest) }
        let nearest = checkpoints.last { ($0.versions[feature] ?? .max) <= version } ?? first
        var cursor: HistoryCursor
        if let kept = keptCursor(of: id), kept.number >= nearest.number, kept.number >= first.number,
            (kept.core.version(of: feature) ?? .max) <= version
        {
            cursor = kept
        } else {
            guard let core = try checkpoint(of: id, at: nearest.number, from: source) else {
                throw .history(.gap(expected: nearest.number, found: -1))
            }
            cursor = HistoryCursor(core: core, number: nearest.number)
        }
        if cursor.core.version(of: feature) == version,
            let (_, viewModel) = cursor.core.snapshot(of: feature, viewer: viewer)
        {
            keep(cursor, of: id)
            return viewModel
        }
        while true {
            let after = cursor.number
            // A few at a time: every record read is decoded (the memory store's made) before it is replayed, and
            // the version may come early.
            let records = try Self.read { () throws(StorageError) in try source.records(of: id, after: after, limit: 16)
            }
            guard !records.isEmpty else { throw .history(.gap(expected: cursor.number + 1, found: -1)) }
            for record in records {
                let made: [(version: Int, viewModel: any ViewModel)]
                do throws(HistoryError) {
                    made = try cursor.apply(record, collecting: feature, for: viewer)
                } catch {
                    throw .history(error)
                }
                if let hit = made.first(where: { $0.version == version }) {
                    keep(cursor, of: id)
                    return hit.viewModel
                }
            }
        }
    }

    /// A store read, its failure as a rebuild's.
    private static func read<Value>(_ body: () throws(StorageError) -> Value) throws(RebuildFailure) -> Value {
        do {
            return try body()
        } catch {
            throw .storage(error)
        }
    }

    /// The value at checkpoint `number`, decoded once while it is asked for (a store's; the memory store's are
    /// values already).
    private func checkpoint(
        of id: SessionID, at number: Int, from source: any SessionHistoryReading
    ) throws(RebuildFailure) -> SessionCore? {
        guard storage != nil else {
            return try Self.read { () throws(StorageError) in try source.checkpoint(of: id, at: number) }
        }
        let key = CheckpointKey(session: id, number: number)
        let now = tick()
        if let kept = checkpointCores.withLock({ cores -> SessionCore? in
            guard let kept = cores[key] else { return nil }
            cores[key] = (kept.core, now)
            return kept.core
        }) {
            return kept
        }
        guard let core = try Self.read({ () throws(StorageError) in try source.checkpoint(of: id, at: number) }) else {
            return nil
        }
        checkpointCores.withLock { cores in
            cores[key] = (core, now)
            if cores.count > Self.maxCheckpointCores, let oldest = cores.min(by: { $0.value.used < $1.value.used }) {
                cores[oldest.key] = nil
            }
        }
        return core
    }

    private func tick() -> UInt64 {
        cursorClock.withLock { clock -> UInt64 in
            clock += 1
            return clock
        }
    }

    private func keptCursor(of id: SessionID) -> HistoryCursor? {
        cursors.withLock { $0[id]?.cursor }
    }

    private func keep(_ cursor: HistoryCursor, of id: SessionID) {
        let now = tick()
        cursors.withLock { cursors in
            cursors[id] = (cursor, now)
            if cursors.count > Self.maxCursors, let oldest = cursors.min(by: { $0.value.used < $1.value.used }) {
                cursors[oldest.key] = nil
            }
        }
    }

    // MARK: - The versions held

    /// Every version held of each of `session`'s features after the oldest checkpoint, with what made it (from
    /// the data-flow log of the replay), oldest first.
    func versions(of session: Session) throws(AppError) -> VersionList {
        let current = session.versions
        guard let source = source(of: session) else {
            return VersionList(oldest: current, latest: current, versions: [])
        }
        for attempt in 1...3 {
            do throws(RebuildFailure) {
                return try list(session.id, from: source, current: current)
            } catch {
                if case .history(.gap) = error, attempt < 3 { continue }
                logger.error(
                    "history of a session cannot be listed",
                    metadata: ["session": "\(session.id)", "cause": "\(error)"])
                throw .storageUnavailable
            }
        }
        throw .storageUnavailable
    }

    private func list(_ id: SessionID, from source: any SessionHistoryReading, current: [String: Int])
        throws(RebuildFailure) -> VersionList
    {
        guard let first = try Self.read({ () throws(StorageError) in try source.checkpoints(of: id) }).first else {
            return VersionList(oldest: current, latest: current, versions: [])
        }
        guard let core = try Self.read({ () throws(StorageError) in try source.checkpoint(of: id, at: first.number) })
        else {
            throw .history(.gap(expected: first.number, found: -1))
        }
        var cursor = HistoryCursor(core: core, number: first.number)
        var latest = first.versions
        var made: [VersionList.Entry] = []
        while true {
            let after = cursor.number
            let records = try Self.read { () throws(StorageError) in
                try source.records(of: id, after: after, limit: Self.page)
            }
            if records.isEmpty { break }
            for record in records {
                let before = cursor.core.sequence
                do throws(HistoryError) {
                    try cursor.apply(record, collecting: nil)
                } catch {
                    throw .history(error)
                }
                let reached = cursor.core.sequence
                guard reached > before else { continue }
                for sequence in (before + 1)...reached {
                    guard let entry = cursor.core.log.entry(sequence: sequence),
                        entry.versionAfter > latest[entry.feature, default: .max]
                    else { continue }
                    latest[entry.feature] = entry.versionAfter
                    made.append(
                        VersionList.Entry(
                            feature: entry.feature, version: entry.versionAfter, record: record.number, cause: entry))
                }
            }
        }
        return VersionList(oldest: first.versions, latest: latest, versions: made)
    }

    // MARK: - Export

    /// Writes `session`'s journal export to `body`: the header with the value at the oldest checkpoint held, then
    /// a line per record after it, read a page at a time (so a long history never sits in memory), then the end
    /// line. A failure midway ends the body without its end line, so the file reads as cut short.
    ///
    /// A shared session's member (`features`, those it was invited to) exports its features' current value alone,
    /// without input lines (``SessionCore/projected(onto:)``): the session's inputs interleave its features with the
    /// others' (one sequence, one random generator, one count of timers), so its features' records alone would not
    /// replay to what it saw, and the others' are not its to take.
    func export(_ session: Session, to body: HTTPBodyWriter, at now: Date, features: [String]? = nil) async throws {
        if let features {
            let (core, number) = try await committedValue(of: session)
            let writer = try JournalExportWriter(
                session: session.id, createdAt: session.createdAt, exportedAt: now,
                base: core.projected(onto: Set(features)), number: number)
            try await body.write(writer.header)
            try await body.write(writer.end())
            return
        }
        // One source for the whole export: the memory store's is a copy of the session's history as it is now.
        let source = source(of: session)
        let (base, number) = try await exportBase(of: session, from: source)
        var writer = try JournalExportWriter(
            session: session.id, createdAt: session.createdAt, exportedAt: now, base: base, number: number)
        try await body.write(writer.header)
        guard let source else {
            try await body.write(writer.end())
            return
        }
        // The next page is read and its events decoded (the memory store's made first) on another thread while
        // this one is replayed and written: each is about half the work.
        let id = session.id
        let after = Locked(number)
        let pages = Ahead { () throws -> [(record: JournalRecord, decoded: DecodedEvents?)]? in
            let records = try source.records(of: id, after: after.withLock { $0 }, limit: Self.page)
            guard let last = records.last else { return nil }
            after.withLock { $0 = last.number }
            return records.map { ($0, base.decodedAhead($0.input)) }
        }
        while true {
            let (next, chunk, more) = try await OffLoop.run {
                [writer] () throws -> (JournalExportWriter, [UInt8], Bool) in
                var writer = writer
                guard let page = try pages.next() else { return (writer, [], false) }
                var chunk: [UInt8] = []
                for (record, decoded) in page { chunk += try writer.line(for: record, decoded: decoded) }
                pages.done(with: consume page)
                return (writer, chunk, true)
            }
            writer = next
            guard more else { break }
            try await body.write(chunk)
        }
        try await body.write(writer.end())
    }

    /// The value an export starts from and its record number: the oldest checkpoint held, else (no history kept)
    /// the session's value once everything applied is durable.
    private func exportBase(of session: Session, from source: (any SessionHistoryReading)?) async throws -> (
        SessionCore, Int
    ) {
        if let source {
            let id = session.id
            let held = try await OffLoop.run { () throws -> (SessionCore, Int)? in
                for _ in 1...3 {
                    guard let first = try source.checkpoints(of: id).first else { return nil }
                    if let core = try source.checkpoint(of: id, at: first.number) { return (core, first.number) }
                }
                throw AppError.storageUnavailable
            }
            if let held { return held }
        }
        return try await committedValue(of: session)
    }

    /// The session's value once everything applied is durable, and the number of its last record.
    private func committedValue(of session: Session) async throws -> (SessionCore, Int) {
        // A value and its number that agree: nothing applied is waiting for its commit (a busy session may take a few
        // tries).
        for _ in 1...100 {
            try await session.committed()
            let point = session.committedPoint
            if let core = point.core { return (core, point.number) }
        }
        throw AppError.storageUnavailable
    }
}
