import Foundation
import ViewModelCore

extension SessionRegistry {
    /// A new session (a new id and token) from an export read back: its value is the export's last, and its
    /// history the export's records, so every version the export holds is served again, byte for byte (its
    /// action links name the new id). With a durable store the value at the export's start and every record are
    /// stored, in order, with snapshots spaced as a live session spaces them (and when its next timer is due with the
    /// last record, not with each: that was an update of the session's row per record); the ticket resolves once the
    /// last is durable. Its timers start now: any that fell due since the export fire at once, as after a restart.
    /// - Throws: `AppError.tooManySessions` at the cap, `AppError.storeFull` past the store's size limit.
    func importSession(_ imported: ImportedJournal) throws(AppError) -> Created {
        try checkStoreRoom()
        let secret = SessionSecret.random()
        let id = SessionID.random()
        let token = SessionToken(secret: secret)
        let now = scheduler.now
        var history: HeldHistory?
        if storage == nil, settings.historyInputs > 0 {
            var held = HeldHistory(limit: settings.historyInputs, base: imported.base, number: imported.baseNumber)
            for record in imported.records { held.append(record, checkpoint: imported.checkpoints[record.number]) }
            history = held
        }
        // Refused before anything is stored where the cap refuses (without a store, idle sessions do not leave).
        guard storage != nil || store.count < settings.store.maxSessions else { throw .tooManySessions }
        var durable: CommitTicket?
        if let storage {
            let ticket = CommitTicket()
            let resolve: @Sendable (Bool) -> Void = { stored in
                ticket.resolve(stored ? .success(()) : .failure(.unavailable))
            }
            let ignore: @Sendable (Bool) -> Void = { _ in }
            let nextDue = imported.final.nextTimerDue
            do throws(UnstorableValue) {
                try storeImport(
                    imported, id: id, token: token, now: now, nextDue: nextDue, in: storage, resolve: resolve,
                    ignore: ignore)
            } catch {
                // A value the replay made that cannot be stored: what was queued goes, and nothing is kept.
                storage.remove(id, expiredAt: nil) { _ in }
                throw .unstorable(error)
            }
            durable = ticket
        }
        let environment = environment
        guard
            let session = store.insert({
                Session(
                    id: id, token: token, createdAt: now, lastAccess: now, core: imported.final.droppingDeliveries(),
                    journalNumber: imported.lastNumber, environment: environment, history: history)
            })
        else {
            storage?.remove(id, expiredAt: nil) { _ in }
            throw .tooManySessions
        }
        return Created(session: session, secret: secret, durable: durable)
    }

    /// Stores an imported session: its value at the export's start, then every record, in order, with snapshots
    /// spaced as a live session spaces them. The last write resolves the import's ticket (`resolve`).
    /// - Throws: ``UnstorableValue`` when a value cannot be encoded (nothing more is queued).
    private func storeImport(
        _ imported: ImportedJournal, id: SessionID, token: SessionToken, now: Date, nextDue: Date?,
        in storage: any SessionStorage, resolve: @escaping @Sendable (Bool) -> Void,
        ignore: @escaping @Sendable (Bool) -> Void
    ) throws(UnstorableValue) {
        // A copy reaches no one: it holds no pending delivery (the store keeps its value without them from its last
        // record on, or from its start when it has none), and its addresses work only for the original.
        try storage.create(
            StoredSession(
                id: id, token: token, createdAt: now, lastAccess: now,
                core: imported.records.isEmpty ? imported.base.droppingDeliveries() : imported.base,
                journalNumber: imported.baseNumber),
            completion: imported.records.isEmpty ? resolve : ignore)
        // The store writes a session's entries in order and fails every one after a failure: the last answers
        // for all. Of the import's checkpoints (every 64 records) it keeps those a live session would have
        // spaced its snapshots by (``SnapshotSpacing``): a snapshot due where the import has no checkpoint
        // waits for its next one.
        var spacing = SnapshotSpacing()
        for record in imported.records {
            let isLast = record.number == imported.lastNumber
            let checkpoint =
                isLast
                ? imported.final.droppingDeliveries()
                : spacing.countInput() ? imported.checkpoints[record.number] : nil
            let bytes = try storage.append(
                JournalEntry(
                    session: id, number: record.number, input: record.input,
                    snapshot: checkpoint, nextDueAt: nextDue, dueChanged: isLast, lastAccess: now),
                completion: isLast ? resolve : ignore)
            if checkpoint != nil { spacing.taken(storedBytes: bytes) }
        }
    }
}
