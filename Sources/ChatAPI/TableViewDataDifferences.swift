import ViewHostAPI

/// How the message table changes from the previous view model to this one (seed 001,
/// `Views/TableViewDataDifferentiator.swift`), rows as plain indexes (section 0).
public struct TableViewDataDifferences: ViewModel {
    /// Rows of the previous list whose messages are gone (the history cap dropped them).
    public let rowsToDelete: [Int]
    /// Rows of the previous list whose messages are still there (reloaded).
    public let rowsToUpdate: [Int]
    /// New rows, numbered from the previous list's count (as the original numbers them).
    public let rowsToInsert: [Int]
    /// Updated plus inserted rows.
    public let finalRowCount: Int

    /// Creates the differences.
    public init(rowsToDelete: [Int], rowsToUpdate: [Int], rowsToInsert: [Int], finalRowCount: Int) {
        self.rowsToDelete = rowsToDelete
        self.rowsToUpdate = rowsToUpdate
        self.rowsToInsert = rowsToInsert
        self.finalRowCount = finalRowCount
    }

    /// No change and no rows.
    public static let empty = TableViewDataDifferences(
        rowsToDelete: [], rowsToUpdate: [], rowsToInsert: [], finalRowCount: 0)
}
