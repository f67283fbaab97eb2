import ViewModelCore

/// A journal export as this build reads it, for one feature (``StoredMigration/journal(of:export:otherFeatures:importedAt:)``).
public struct MigratedJournal<F: Feature>: Sendable {
    /// The feature's state in the export's header, migrated: where the export starts.
    public let base: F.State
    /// The feature's state after the last record was replayed: what an import of the export holds.
    public let state: F.State
    /// The events of the feature's records (a client's, the app's, a provider's answers; not the timers', which
    /// the states hold), migrated, in order.
    public let events: [F.Event]
}
