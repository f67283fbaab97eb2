import Foundation

/// A journal export read back and replayed.
public struct ImportedJournal: Sendable {
    /// The id of the session it was exported from.
    public let exportedSession: String
    /// When that session was made, if the header says.
    public let createdAt: Date?
    /// The number of the record the header's value includes.
    public let baseNumber: Int
    /// The header's value.
    public let base: SessionCore
    /// The records, in order.
    public let records: [JournalRecord]
    /// The value after every `checkpointEvery`-th record, by the record's number.
    public let checkpoints: [Int: SessionCore]
    /// The value after the last record.
    public let final: SessionCore

    /// The number of the last record (the base's when there is none).
    public var lastNumber: Int { records.last?.number ?? baseNumber }
}
