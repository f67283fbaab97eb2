import ChatAPI
import ViewHostAPI

/// Works out how a table's rows change between two lists (seed 001, `Views/TableViewDataDifferentiator.swift`).
///
/// Mirrors the original's numbering: deleted and updated rows are offsets in the old list, inserted rows are
/// numbered from the old count, and the final count is updated plus inserted. Identity is the message id (quirk
/// fixed: the original matched equal `sendDate`s, so two messages in one second were the same row). Sets make it
/// O(n) where the original was O(n²).
enum TableViewDataDifferentiator {
    /// The differences from `oldValues` to `newValues`, matching equal values as the same row.
    static func differentiate<T: Hashable>(oldValues: [T], with newValues: [T]) -> TableViewDataDifferences {
        let oldSet = Set(oldValues)
        let newSet = Set(newValues)
        let updatedCount = newValues.count { oldSet.contains($0) }
        let insertedCount = newValues.count - updatedCount
        return TableViewDataDifferences(
            rowsToDelete: oldValues.indices.filter { !newSet.contains(oldValues[$0]) },
            rowsToUpdate: oldValues.indices.filter { newSet.contains(oldValues[$0]) },
            rowsToInsert: Array(oldValues.count..<oldValues.count + insertedCount),
            finalRowCount: updatedCount + insertedCount)
    }
}
