/// A write queued on a ``JournalWriter``, with what is told when it is durable (or not). Outside the generic writer,
/// so that copying one (every batch moves thousands in an import) is not done through the generic type's metadata.
struct PendingJournalWrite: Sendable {
    let write: JournalWrite
    let completion: @Sendable (Bool) -> Void
}
