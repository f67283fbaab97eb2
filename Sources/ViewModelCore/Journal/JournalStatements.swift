/// A durable store's part of its ``JournalWriter``: its statements and what its medium needs (a transaction, the
/// probe that says it takes writes again, how an error reads). The writer does the rest, the same for every store:
/// the queue, batching, poisoning, probing and fencing.
///
/// The writer calls it on its serial queue only, one batch at a time.
public protocol JournalStatements: Sendable {
    /// What a transaction's statements run on (a database handle, a connection).
    associatedtype Connection

    /// How often, in seconds, a failing store is probed with ``probe()``.
    var probeInterval: Double { get }

    /// Runs `body` in one transaction, committing (durably) when it returns and rolling back when it throws.
    func transaction(_ body: (Connection) throws -> Void) throws

    /// Writes `write` in the transaction.
    /// - Returns: Whether it took effect: false when the store refuses it (a record that does not follow the last one,
    ///   a session removed, a fence another node raised); the writer then poisons the copy it came from.
    func apply(_ write: JournalWrite, in connection: Connection) throws -> Bool

    /// Writes `writes` in the transaction, in their order.
    /// - Returns: Whether each took effect (as ``apply(_:in:)`` says for one). The default writes them one by one; a
    ///   store whose statements each cost a round trip sends runs of them at once.
    func apply(_ writes: [JournalWrite], in connection: Connection) throws -> [Bool]

    /// Whether a batch may be written now (a store that finds its files replaced says no, and why, through the
    /// monitor); asked before each batch, after the writer checked the store is not broken.
    func mayWrite() -> Bool

    /// Called after a batch committed, before any of it is answered, with what took effect.
    /// - Returns: A fault to report though the writes are durable (a side file that cannot be written), or nil.
    func committed(_ writes: [JournalWrite], results: [Bool]) -> StorageHealth?

    /// A small write that reaches the medium: succeeding, it says the store takes writes again.
    func probe() throws

    /// The store's health after `error` failed a transaction or a probe: failing (it may clear), or broken.
    func health(after error: any Error) -> StorageHealth
}

extension JournalStatements {
    /// Writes them one by one with ``apply(_:in:)``.
    public func apply(_ writes: [JournalWrite], in connection: Connection) throws -> [Bool] {
        try writes.map { try apply($0, in: connection) }
    }

    /// Always: a store with nothing to check before a batch.
    public func mayWrite() -> Bool { true }

    /// No fault: a store with nothing to do after a commit.
    public func committed(_ writes: [JournalWrite], results: [Bool]) -> StorageHealth? { nil }
}
