import SQLiteStorage
import ViewModelCore

/// `viewhost backup` and `viewhost check`: the durable store's maintenance, for the executable.
public enum StoreMaintenance {
    /// Copies the store in `dataDirectory` to `output` (consistent while a server runs).
    /// - Returns: How many sessions the copy holds.
    public static func backup(dataDirectory: String, to output: String) throws(StorageError) -> Int {
        try SQLiteMaintenance.backup(directory: dataDirectory, to: output)
    }

    /// Checks the store in `dataDirectory`.
    /// - Returns: How many sessions it holds.
    public static func check(dataDirectory: String) throws(StorageError) -> Int {
        try SQLiteMaintenance.check(directory: dataDirectory)
    }
}
