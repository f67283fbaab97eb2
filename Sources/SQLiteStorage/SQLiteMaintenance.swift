import Foundation
import GRDB
import ViewModelCore

/// Operations on a store file outside a server: an online backup and an integrity check. Both open the file
/// read-only and never make or change the data directory.
public enum SQLiteMaintenance {
    /// Copies the store in `directory` to `output` with SQLite's online backup: a consistent copy even while a
    /// server writes to it.
    /// - Returns: How many sessions the copy holds.
    /// - Throws: ``StorageError/unusable(path:reason:)`` when there is no sound store, or the copy cannot be made.
    public static func backup(directory: String, to output: String) throws(StorageError) -> Int {
        let source = try openExisting(directory)
        // Made here, private (0600) as the store is, before SQLite opens it; a file that exists is never overwritten.
        let made = open(output, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard made >= 0 else {
            let reason = errno == EEXIST ? "it exists already; name a new file" : String(cString: strerror(errno))
            throw .cannotCreate(path: output, reason: reason)
        }
        close(made)
        do {
            let destination = try DatabaseQueue(path: output)
            try source.pool.backup(to: destination)
            return try destination.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions WHERE expired_at IS NULL") ?? 0
            }
        } catch {
            throw .cannotCreate(path: output, reason: SQLiteSessionStorage.describe(error))
        }
    }

    /// Checks the store in `directory`: its identity, its schema version and SQLite's full integrity check.
    /// - Returns: How many sessions it holds.
    /// - Throws: ``StorageError/unusable(path:reason:)`` naming the file and what is wrong.
    public static func check(directory: String) throws(StorageError) -> Int {
        let store = try openExisting(directory)
        do {
            return try store.pool.read { db in
                let problems = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard problems == ["ok"] else {
                    throw StorageError.unusable(
                        path: store.path, reason: "integrity check failed: \(problems.prefix(3).joined(separator: "; "))")
                }
                guard try SQLiteSchema.migrator.hasCompletedMigrations(db) else {
                    throw StorageError.unusable(path: store.path, reason: "its schema is not up to date")
                }
                return try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions WHERE expired_at IS NULL") ?? 0
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .unusable(path: store.path, reason: SQLiteSessionStorage.describe(error))
        }
    }

    /// The store file in `directory`, opened read-only, after checking it is ours and not newer.
    private static func openExisting(_ directory: String) throws(StorageError) -> (pool: DatabasePool, path: String) {
        let path = (directory as NSString).appendingPathComponent(SQLiteSessionStorage.fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            throw .unusable(path: path, reason: "no store here (the server has not run with this --data-dir)")
        }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let pool = try DatabasePool(path: path, configuration: configuration)
            try pool.read { db in
                let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                guard applicationID == SQLiteSchema.applicationID else {
                    throw StorageError.unusable(path: path, reason: "not a ViewHost store (another application's database)")
                }
                if try SQLiteSchema.migrator.hasBeenSuperseded(db) {
                    throw StorageError.unusable(path: path, reason: "written by a newer ViewHost")
                }
            }
            return (pool, path)
        } catch let error as StorageError {
            throw error
        } catch {
            throw .unusable(path: path, reason: SQLiteSessionStorage.describe(error))
        }
    }
}
