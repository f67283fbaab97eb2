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
    /// next journal entry, and its effects wait for the commit. Timers start at once either way.
    /// `input` is made only when a journal keeps it, and outside the lock (``complete(_:)``); a history kept in
    /// memory keeps it unmade, until the record is read.
    /// - Parameter firedTimer: Whether the input is a timer that fired (the session's next due instant may move).
    func record(
        _ input: UnmadeInput, step: SessionStep?, key: String?, waited: Bool,
        firedTimer: Bool = false, in shell: inout Shell
    ) -> Commit {
        for timer in step?.timersStarted ?? [] { startTimer(timer, in: &shell) }
        for id in step?.timersCancelled ?? [] { shell.timers.removeValue(forKey: id)?.cancel() }
        if shell.timers.isEmpty { shell.timers = [:] }  // idle sessions keep no table
        let effects = Effects(changes: step?.changes ?? [], requests: step?.requests ?? [])
        // A step changes one feature: its version after the step is the one readers may see once it is durable.
        let versions = step.flatMap { $0.changes.isEmpty ? nil : [$0.feature: $0.version] } ?? [:]
        guard environment.journal != nil else {
            if shell.history != nil { keep(input, in: &shell) }
            return Commit(effects: effects, journaled: false, ticket: nil)
        }
        if let step, let first = step.changes.first?.versions[step.feature], shell.uncommitted[step.feature] == nil {
            shell.uncommitted[step.feature] = first - 1  // each change bumps the version by one
        }
        shell.appliedNumber += 1
        let snapshot = shell.snapshots.countInput() ? shell.core : nil
        if snapshot != nil { shell.snapshots.taken() }
        // The next due instant moves only when a timer starts, is cancelled or fires: most inputs leave it, and the
        // store its row.
        let dueChanged = firedTimer || !(step?.timersStarted.isEmpty ?? true) || !(step?.timersCancelled.isEmpty ?? true)
        shell.handoff.append(
            UnmadeEntry(
                number: shell.appliedNumber, input: input, snapshot: snapshot,
                nextDueAt: dueChanged ? shell.core.nextTimerDue : nil, dueChanged: dueChanged,
                lastAccess: lastAccess))
        let ticket = waited ? CommitTicket() : nil
        if let key { shell.keysInFlight.insert(key) }
        shell.pending.append(
            PendingCommit(number: shell.appliedNumber, effects: effects, versions: versions, key: key, ticket: ticket))
        return Commit(effects: effects, journaled: true, ticket: ticket)
    }

    /// Keeps `input` in the session's own history (no journal keeps it), with a checkpoint of the value every
    /// ``snapshotInterval`` inputs, as a store keeps its snapshots.
    private func keep(_ input: UnmadeInput, in shell: inout Shell) {
        shell.appliedNumber += 1
        shell.committedNumber = shell.appliedNumber
        let checkpoint = shell.snapshots.countInput() ? shell.core : nil
        if checkpoint != nil { shell.snapshots.taken() }
        shell.history?.append(number: shell.appliedNumber, input: input, checkpoint: checkpoint)
    }

    /// Hands the entries made so far to the journal (outside the lock), or carries the effects out at once without
    /// one.
    ///
    /// The journal must get a session's entries in number order, yet two threads that applied entries 5 and 6
    /// reach this point in either order (the store then refused 6 as a gap and answered `503`, seen under
    /// concurrent posts to one session). So entries queue in the shell under the lock that numbered them, and one
    /// thread at a time makes (encodes) and hands over everything queued, in order; a thread that finds another
    /// doing it leaves its entry to that one.
    func complete(_ commit: Commit) {
        guard commit.journaled, let journal = environment.journal else {
            deliver(commit.effects)
            return
        }
        var batch = shell.withLock { shell -> [UnmadeEntry] in
            // Nothing queued: a thread that was handing over took this entry already. Taking the role then would
            // leave it taken with nothing to hand over, and every later entry would wait for ever (seen under load).
            guard !shell.handingOff, !shell.handoff.isEmpty else { return [] }
            shell.handingOff = true
            return shell.takeHandoff()
        }
        while !batch.isEmpty {
            var snapshotBytes: Int?
            for unmade in batch {
                let number = unmade.number
                let entry = JournalEntry(
                    session: id, number: number, input: unmade.input.make(), snapshot: unmade.snapshot,
                    nextDueAt: unmade.nextDueAt, dueChanged: unmade.dueChanged, lastAccess: unmade.lastAccess, copy: copy)
                // The completion holds the session until the journal answers: a session dropped from memory
                // meanwhile (taken over, or every copy dropped when the node lost the store) still answers the
                // requests that wait on this write. Held weakly, it answered none of them: they waited for ever.
                let bytes = journal.append(entry) { durable in self.committed(upTo: number, durable: durable) }
                if unmade.snapshot != nil { snapshotBytes = bytes }
            }
            batch = shell.withLock { shell in
                if let snapshotBytes { shell.snapshots.stored(bytes: snapshotBytes) }
                let next = shell.takeHandoff()
                if next.isEmpty {
                    shell.handingOff = false
                    shell.releaseInFlightIfEmpty()
                }
                return next
            }
        }
    }

    /// The journal kept (or failed to keep) every entry up to `number`.
    private func committed(upTo number: Int, durable: Bool) {
        let (done, failed) = shell.withLock { shell -> ([PendingCommit], [PendingCommit]) in
            let done = shell.pending.prefix { $0.number <= number }
            shell.pending.removeFirst(done.count)
            for commit in done { if let key = commit.key { shell.keysInFlight.remove(key) } }
            guard durable, !shell.closed else {
                // What was applied is not kept: this value is no longer the session's; a later lookup loads the
                // durable one from the store. Everything applied after it fails too (the journal's contract).
                if shell.end == nil { shell.end = .unavailable }
                closedFlag.store(true, ordering: .releasing)
                let failed = Array(done) + shell.pending
                shell.pending.removeAll()
                for timer in shell.timers.values { timer.cancel() }
                shell.timers.removeAll()
                shell.releaseInFlightIfEmpty()
                return ([], failed)
            }
            shell.committedNumber = number
            if shell.pending.isEmpty {
                shell.uncommitted = [:]
                shell.kept = [:]
            } else {
                for commit in done {
                    for (feature, version) in commit.versions where shell.uncommitted[feature] != nil {
                        shell.uncommitted[feature] = version
                    }
                }
                shell.dropKeptVersionsOlderThanCommitted()
            }
            shell.releaseInFlightIfEmpty()
            return (Array(done), [])
        }
        for commit in done {
            deliver(commit.effects)
            commit.ticket?.resolve(.success(()))
        }
        guard !failed.isEmpty else { return }
        for commit in failed { commit.ticket?.resolve(.failure(.unavailable)) }
        environment.onStorageFailure?(id)
        stream.close(.unavailable, sequence: 0)
    }

    /// Waits until everything applied so far is durable (at once without a journal).
    /// - Throws: ``SessionError/unavailable`` when the store could not keep it.
    public func committed() async throws(SessionError) {
        let ticket = shell.withLock { shell -> CommitTicket? in
            shell.pending.isEmpty ? nil : shell.ticket(forPendingAt: shell.pending.count - 1)
        }
        try await ticket?.value()
    }

    func startTimer(_ timer: TimerStart, in shell: inout Shell) {
        let delay =
            timer.delay ?? .milliseconds(max(0, Int64(timer.dueAt.timeIntervalSince(environment.scheduler.now) * 1000)))
        let id = timer.id
        shell.timers[id] = environment.scheduler.schedule(after: delay) { [weak self] in self?.fireTimer(id) }
    }
}

extension Session.Shell {
    /// The ticket of the pending commit at `index`, made now when nobody waited on it yet.
    mutating func ticket(forPendingAt index: Int) -> CommitTicket {
        let commit = pending[index]
        if let ticket = commit.ticket { return ticket }
        let ticket = CommitTicket()
        pending[index] = Session.PendingCommit(
            number: commit.number, effects: commit.effects, versions: commit.versions, key: commit.key, ticket: ticket)
        return ticket
    }
}

/// Resolved once an applied input is durable (or could not be kept); any number of tasks or callbacks may wait on
/// it.
public final class CommitTicket: Sendable {
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
