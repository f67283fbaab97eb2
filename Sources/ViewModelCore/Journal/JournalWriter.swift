import Foundation
import ViewHostLocking

/// A durable store's one writer, the same for every store: a serial queue that takes every write queued so far (of
/// all sessions, up to a bound in bytes) and commits them in one transaction (group commit: one sync for them all),
/// then answers each. The store supplies its statements (``JournalStatements``); the writer does the rest:
///
/// - **Poisoning.** A session's copy whose write failed is poisoned: its later writes fail too, and so do those of
///   older copies (so its journal never gets a gap or a write from a value that was dropped), while a copy loaded
///   since (a higher ``JournalEntry/copy``) writes again.
/// - **Fencing.** A record queued without a fence (its session is not this node's) is refused without touching the
///   store; the store's statement refuses one whose fence is stale.
/// - **Health.** `failing` after a transaction failed, probed every ``JournalStatements/probeInterval`` seconds until
///   a write reaches the medium; `healthy` only after a batch that really wrote a session or a record (never after
///   one whose every write was refused before touching it); `broken` stops every write.
public final class JournalWriter<Statements: JournalStatements>: Sendable {
    private typealias Pending = PendingJournalWrite

    private struct State {
        /// Per session, the newest copy whose write failed: its writes and older copies' are refused.
        var poisoned: [SessionID: Int] = [:]
        var probing = false
        /// The store closed: later writes are refused without touching it.
        var stopped = false
    }

    /// The largest batch, in bytes of records and snapshots, one transaction takes (more waits for the next).
    public static var maxBatchBytes: Int { 4 << 20 }

    /// The store's health.
    public let monitor: StorageHealthMonitor
    /// Transactions committed and the writes they carried, since start: (batches, writes). Writes per batch is how
    /// many share one sync.
    public let counts = Locked((batches: 0, writes: 0))
    private let statements: Statements
    private let state = Locked(State())
    private let intake: GroupCommitQueue<Pending>

    /// A writer on `statements`, its serial queue labelled `label`.
    public init(label: String, statements: Statements, monitor: StorageHealthMonitor = StorageHealthMonitor()) {
        self.statements = statements
        self.monitor = monitor
        intake = GroupCommitQueue(label: label, maxBatchBytes: Self.maxBatchBytes)
    }

    /// Queues `write`; `completion` is called once, on any thread, with whether it is durable.
    public func enqueue(_ write: JournalWrite, completion: @escaping @Sendable (Bool) -> Void) {
        intake.enqueue(Pending(write: write, completion: completion), bytes: write.size) { self.write($0) }
    }

    /// The most last-use times one write carries. A flush of many sessions (every one a stream holds open is written
    /// at every flush) goes in parts, each queued once the one before it is written, so a commit waits behind one
    /// part at most: written at once, 2,000 of them held the writer for 5–8 ms, and 100,000 would hold it for a
    /// third of a second.
    public static var accessTimesPerWrite: Int { 256 }

    /// Queues `times` (when sessions were last used) in parts of at most ``accessTimesPerWrite``, each after the
    /// one before it is written (or refused: the rest are still tried, and refused as quickly while the store takes
    /// no writes).
    public func enqueueAccess(_ times: [(SessionID, Date)]) {
        enqueueAccess(times[...])
    }

    /// Queues the first part of `times`, and the rest once it is written: the rest is a slice of the one array, not
    /// a copy of what is left made for every part.
    private func enqueueAccess(_ times: ArraySlice<(SessionID, Date)>) {
        guard !times.isEmpty else { return }
        let part = times.prefix(Self.accessTimesPerWrite)
        enqueue(.access(Array(part))) { _ in self.enqueueAccess(times[part.endIndex...]) }
    }

    /// Writes everything queued, then stops (shutdown): later writes are refused (their completions say not
    /// durable) without touching the store.
    public func drainAndStop() {
        intake.drainAndStop { self.write($0) }
        state.withLock { $0.stopped = true }
    }

    /// Whether the store closed.
    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// Runs `work` on the writer's queue after `seconds`, between batches (a store's periodic checks).
    public func after(seconds: Double, _ work: @escaping @Sendable () -> Void) {
        intake.after(seconds: seconds, work)
    }

    /// Whether a write may go ahead: not once the store is broken, nor when the store says no.
    public func mayWrite() -> Bool {
        if case .broken = monitor.health { return false }
        return statements.mayWrite()
    }

    /// A write failed (`error`): the store is failing, and probed until a write succeeds, or broken.
    public func fail(_ error: any Error) {
        let health = statements.health(after: error)
        monitor.set(health)
        if case .failing = health { scheduleProbe() }
    }

    private func write(_ batch: [Pending]) {
        guard !isStopped, mayWrite() else {
            for pending in batch { pending.completion(false) }
            return
        }
        var poisoned = state.withLock { $0.poisoned }
        var results = [Bool](repeating: false, count: batch.count)
        do {
            do {
                results = try commit(batch, together: true, poisoned: &poisoned)
            } catch is Resequence {
                results = try commit(batch, together: false, poisoned: &poisoned)
            }
            let writes = batch.map { $0.write }
            if let fault = statements.committed(writes, results: results) {
                monitor.set(fault)
            } else if zip(writes, results).contains(where: { $0.isJournalWrite && $1 }) {
                // Only what the store exists for, written for real, says that it takes writes again: access times
                // are tiny writes that may fit where records do not, and a batch whose every record was refused
                // (its session poisoned) wrote nothing.
                monitor.set(.healthy)
            }
            counts.withLock { $0 = ($0.batches + 1, $0.writes + batch.count) }
        } catch {
            // The transaction rolled back: nothing of this batch is stored.
            results = [Bool](repeating: false, count: batch.count)
            for pending in batch { Self.poison(pending.write, &poisoned) }
            fail(error)
        }
        state.withLock { $0.poisoned = poisoned }
        for (pending, durable) in zip(batch, results) { pending.completion(durable) }
    }

    /// A batch written together took a write of a copy after a record of that copy was refused: it is undone and
    /// written again one write at a time.
    private struct Resequence: Error {}

    /// Writes `batch` in one transaction: `together`, everything that may be written in one call to the store (a
    /// store sends runs of records at once); else one write at a time, each refusal poisoning its copy before the
    /// next write is looked at. A refused record poisons its copy: no later write of it may land (its value went
    /// on from the refused input). Written together, a later record of that copy usually no longer follows and is
    /// refused too; when one was taken anyway (a record queued out of order), the transaction is undone
    /// (``Resequence``) for the caller to write the batch again one at a time.
    /// - Returns: Whether each write took effect; `poisoned` as it is after them (unchanged when it throws).
    private func commit(_ batch: [Pending], together: Bool, poisoned: inout [SessionID: Int]) throws -> [Bool] {
        var after = poisoned
        var results = [Bool](repeating: false, count: batch.count)
        try statements.transaction { connection in
            guard together else {
                for index in batch.indices where Self.mayAttempt(batch[index].write, poisoned: &after) {
                    results[index] = try statements.apply(batch[index].write, in: connection)
                    if !results[index], case .append = batch[index].write { Self.poison(batch[index].write, &after) }
                }
                return
            }
            let eligible = batch.indices.filter { Self.mayAttempt(batch[$0].write, poisoned: &after) }
            let done = try statements.apply(eligible.map { batch[$0].write }, in: connection)
            var refused: [SessionID: Int] = [:]
            for (index, took) in zip(eligible, done) {
                let write = batch[index].write
                switch write {
                case .create(let session):
                    refused[session.id] = nil
                case .append(let record):
                    if took, let copy = refused[record.session], record.copy <= copy { throw Resequence() }
                    if !took {
                        refused[record.session] = max(refused[record.session] ?? -1, record.copy)
                        Self.poison(write, &after)
                    }
                case .remove, .access:
                    break
                }
                results[index] = took
            }
        }
        poisoned = after
        return results
    }

    /// Whether `write` may go to the store: not a record of a poisoned copy, nor one queued without a fence (its
    /// session is not this node's; the record's copy is poisoned). A new session clears its id's poison.
    private static func mayAttempt(_ write: JournalWrite, poisoned: inout [SessionID: Int]) -> Bool {
        switch write {
        case .create(let session):
            poisoned[session.id] = nil
        case .append(let record):
            guard record.copy > poisoned[record.session] ?? -1, record.fence != nil else {
                poison(write, &poisoned)
                return false
            }
        case .remove, .access:
            break
        }
        return true
    }

    /// Poisons the copy a create or append came from: its later writes, and older copies', are refused.
    private static func poison(_ write: JournalWrite, _ poisoned: inout [SessionID: Int]) {
        guard let (session, copy) = write.copy else { return }
        poisoned[session] = max(poisoned[session] ?? -1, copy)
    }

    /// While writes fail, tries the store's probe every ``JournalStatements/probeInterval`` seconds, so it says it is
    /// writable again as soon as the medium takes writes (readiness follows it).
    private func scheduleProbe() {
        let start = state.withLock { state -> Bool in
            guard !state.probing else { return false }
            state.probing = true
            return true
        }
        guard start else { return }
        intake.after(seconds: statements.probeInterval) { self.probe() }
    }

    private func probe() {
        let stopped = state.withLock { state in
            state.probing = false
            return state.stopped
        }
        guard !stopped, case .failing = monitor.health else { return }
        do {
            try statements.probe()
            monitor.set(.healthy)
        } catch {
            fail(error)
        }
    }
}
