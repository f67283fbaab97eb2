/// One record of a session's journal as its history reads it back: its number and what was applied.
public struct JournalRecord: Sendable, Equatable {
    /// The record's number in the session's journal: 1, 2, 3… without gaps.
    public let number: Int
    /// What was applied.
    public let input: SessionInput

    /// Creates a record.
    public init(number: Int, input: SessionInput) {
        self.number = number
        self.input = input
    }
}
