import SQLiteStorage
import ViewModelCore

/// `viewhost backup`, `viewhost check` and `viewhost repair`: the durable store's maintenance, for the executable.
public enum StoreMaintenance {
    /// What a check found: how many sessions, and what is wrong.
    public typealias Report = SQLiteMaintenance.Report

    /// Copies the store in `dataDirectory` to `output` (consistent while a server runs).
    /// - Returns: How many sessions the copy holds.
    public static func backup(dataDirectory: String, to output: String) throws(StorageError) -> Int {
        try SQLiteMaintenance.backup(directory: dataDirectory, to: output)
    }

    /// Checks the store in `dataDirectory`, reading it only; with `features` (the app's), every session is decoded
    /// with them too, and what the start would refuse of them is said.
    /// - Returns: How many sessions it holds and what is wrong, a few lines at most.
    public static func check(dataDirectory: String, features: FeatureTypes? = nil) throws(StorageError) -> Report {
        try SQLiteMaintenance.check(directory: dataDirectory, features: features)
    }

    /// Ends the sessions a check finds damaged in the store in `dataDirectory` (no server may use it).
    /// - Returns: One line per session ended.
    public static func repair(dataDirectory: String) throws(StorageError) -> [String] {
        try SQLiteMaintenance.repair(directory: dataDirectory)
    }
}
