import Foundation
import Synchronization
import ViewHostLocking

/// Durability: each applied input goes to the journal, and its effects wait until it is committed.
extension Session {
    /// An applied input and what becomes of it: with no journal, its effects at once; with one, an entry to hand
    /// to the journal (its effects wait in the shell for the commit).
    struct Commit {
        let effects: Effects
        let journaled: Bool
        let ticket: CommitTicket?
    }

    /// A journal entry numbered under the lock, made outside it: encoding events costs more than applying them, and
    /// the lock is the session's one serial step.
    struct UnmadeEntry: Sendable {
        let number: Int
        let input: UnmadeInput
        let snapshot: SessionCore?
        let nextDueAt: Date?
        let dueChanged: Bool
        let lastAccess: Date
    }

    /// Records an applied input (under the lock): with no journal it is durable at once; with one it becomes the
    /// next journal entry of the session's ``CommitPipeline``, and its effects wait for the commit. Timers start at
    /// once either way. `input` is made only when a journal keeps it, and outside the lock (``complete(_:)``); a
    /// history kept in memory keeps it unmade, until the record is read.
    /// - Parameters:
    ///   - input: The input applied, made later if a journal keeps it.
    ///   - step: What applying it did (timers started and cancelled, deliveries), nil when it did nothing.
    ///   - key: The request's idempotency key, if it had one (held in flight until the commit).
    ///   - waited: Whether the caller waits for the commit (a ticket is made).
    ///   - firedTimer: Whether the input is a timer that fired (the session's next due instant may move).
    ///   - shell: The session's state under the lock.
    /// - Returns: The input's effects, whether it was journaled, and the ticket the caller waits on, if any.
    func record(
        _ input: UnmadeInput, step: SessionStep?, key: String?, waited: Bool,
        firedTimer: Bool = false, in shell: inout Shell
    ) -> Commit {
        for timer in step?.timersStarted ?? [] { startTimer(timer, in: &shell) }
        for id in step?.timersCancelled ?? [] { shell.timers.removeValue(forKey: id)?.cancel() }
        if shell.timers.isEmpty { shell.timers = [:] }  // idle sessions keep no table
        var effects = Effects(changes: step?.changes ?? [], requests: step?.requests ?? [])
        if let step, !step.deliveries.isEmpty { effects.deliveries = [step.feature: step.deliveries] }
        guard environment.journal != nil else {
            if shell.history != nil { keep(input, in: &shell) }
            return Commit(effects: effects, journaled: false, ticket: nil)
        }
        let snapshot = shell.snapshots.countInput() ? shell.core : nil
        if snapshot != nil { shell.snapshots.taken() }
        // The next due instant moves only when a timer starts, is cancelled or fires, or a delivery enters or leaves
        // the outbox: most inputs leave it, and the store its row.
        let dueChanged =
            firedTimer || !(step?.timersStarted.isEmpty ?? true) || !(step?.timersCancelled.isEmpty ?? true)
            || step?.outboxChanged == true
        let nextDueAt = dueChanged ? shell.core.nextTimerDue : nil
        let lastAccess = lastAccess
        // A step changes one feature, by one version per change: readers see the version before the first until
        // the input is durable, and the one after it then.
        let first = step.flatMap { step in step.changes.first?.versions[step.feature].map { (step.feature, $0 - 1) } }
        let versions = step.flatMap { $0.changes.isEmpty ? nil : [$0.feature: $0.version] } ?? [:]
        let (_, ticket) = shell.pipeline.record(
            CommitPipeline.Recorded(
                entry: { number in
                    UnmadeEntry(
                        number: number, input: input, snapshot: snapshot, nextDueAt: nextDueAt, dueChanged: dueChanged,
                        lastAccess: lastAccess)
                },
                effects: effects, changed: first.map { (feature: $0.0, versionBefore: $0.1) }, versions: versions,
                key: key, waited: waited))
        return Commit(effects: effects, journaled: true, ticket: ticket)
    }

    /// Keeps `input` in the session's own history (no journal keeps it), with a checkpoint of the value every
    /// ``snapshotInterval`` inputs, as a store keeps its snapshots.
    private func keep(_ input: UnmadeInput, in shell: inout Shell) {
        let number = shell.pipeline.recordWithoutJournal()
        let checkpoint = shell.snapshots.countInput() ? shell.core : nil
        if checkpoint != nil { shell.snapshots.taken() }
        shell.history?.append(number: number, input: input, checkpoint: checkpoint)
    }

    /// Hands the entries made so far to the journal (outside the lock), or carries the effects out at once without
    /// one. One thread at a time hands over everything queued, in number order (``CommitPipeline/takeHandOff()``);
    /// a thread that finds another doing it leaves its entry to that one.
    func complete(_ commit: Commit) {
        guard commit.journaled, let journal = environment.journal else {
            deliver(commit.effects)
            return
        }
        var batch = shell.withLock { $0.pipeline.takeHandOff() }
        while !batch.isEmpty {
            var snapshotBytes: Int?
            for unmade in batch {
                let number = unmade.number
                let entry = JournalEntry(
                    session: id, number: number, input: unmade.input.make(), snapshot: unmade.snapshot,
                    nextDueAt: unmade.nextDueAt, dueChanged: unmade.dueChanged, lastAccess: unmade.lastAccess,
                    copy: copy)
                // The completion holds the session until the journal answers: a session dropped from memory
                // meanwhile (taken over, or every copy dropped when the node lost the store) still answers the
                // requests that wait on this write. Held weakly, it answered none of them: they waited for ever.
                let bytes: Int
                do throws(UnstorableValue) {
                    bytes = try journal.append(entry) { durable in self.committed(upTo: number, durable: durable) }
                } catch {
                    abandon(from: number, because: error)
                    return
                }
                if unmade.snapshot != nil { snapshotBytes = bytes }
            }
            batch = shell.withLock { shell in
                if let snapshotBytes { shell.snapshots.stored(bytes: snapshotBytes) }
                return shell.pipeline.continueHandOff()
            }
        }
    }

    /// Entry `number` cannot be stored (its snapshot of the session's value cannot be encoded): it and every input
    /// applied after it fail, answered with `value`, and the session stops (``stop(because:)``); nothing is written
    /// as empty bytes. The inputs before it go on to their commits.
    private func abandon(from number: Int, because value: UnstorableValue) {
        let abandoned = shell.withLock { $0.pipeline.abandon(from: number) }
        stop(because: value)
        for commit in abandoned { commit.ticket?.resolve(.failure(.unstorable(value))) }
    }

    /// The journal kept (or failed to keep) every entry up to `number`: the effects of what it kept go out and
    /// their tickets resolve, in order; what it could not keep fails, with everything applied after it, and this
    /// copy closes itself (a later lookup loads the durable value from the store).
    private func committed(upTo number: Int, durable: Bool) {
        let outcome = shell.withLock { shell -> CommitPipeline.Outcome in
            let core = shell.core
            let outcome = shell.pipeline.committed(upTo: number, durable: durable && !shell.closed) {
                core.version(of: $0)
            }
            guard case .failed = outcome else { return outcome }
            if shell.end == nil { shell.end = .unavailable }
            closedFlag.store(true, ordering: .releasing)
            for timer in shell.timers.values { timer.cancel() }
            shell.timers.removeAll()
            return outcome
        }
        switch outcome {
        case .kept(let done):
            for commit in done {
                deliver(commit.effects)
                commit.ticket?.resolve(.success(()))
            }
        case .failed(let failed):
            guard !failed.isEmpty else { return }
            for commit in failed { commit.ticket?.resolve(.failure(.unavailable)) }
            environment.onStorageFailure?(id)
            stream.close(.unavailable, sequence: 0)
        }
    }

    /// Waits until everything applied so far is durable (at once without a journal).
    /// - Throws: ``SessionError/unavailable`` when the store could not keep it.
    public func committed() async throws(SessionError) {
        let ticket = shell.withLock { $0.pipeline.ticketForAll() }
        try await ticket?.value()
    }

    func startTimer(_ timer: TimerStart, in shell: inout Shell) {
        let delay =
            timer.delay ?? .milliseconds(max(0, Int64(timer.dueAt.timeIntervalSince(environment.scheduler.now) * 1000)))
        let id = timer.id
        shell.timers[id] = environment.scheduler.schedule(after: delay) { [weak self] in self?.fireTimer(id) }
    }
}

/// Resolved once an applied input is durable (or could not be kept); any number of tasks or callbacks may wait on
/// it.
public final class CommitTicket: Sendable {
    /// Told once whether the input is durable (or ``SessionError/unavailable`` when it could not be kept).
    public typealias Waiter = @Sendable (Result<Void, SessionError>) -> Void

    private let result = OneShot<Result<Void, SessionError>>()

    /// A ticket nobody resolved yet.
    public init() {}

    /// Waits for the commit.
    /// - Throws: ``SessionError/unavailable`` when the store could not keep the input.
    public func value() async throws(SessionError) {
        let result = await withCheckedContinuation { continuation in
            whenResolved { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    /// Calls `waiter` once the ticket is resolved, on the thread that resolves it (or at once, on this one, when
    /// it is resolved already).
    public func whenResolved(_ waiter: @escaping Waiter) {
        result.whenGiven(waiter)
    }

    /// Resolves the ticket (the first call wins) and wakes whoever waits.
    public func resolve(_ result: Result<Void, SessionError>) {
        self.result.give(result)
    }
}
