import Foundation
import GRDB
import ViewModelCore

#if canImport(Glibc)
import Glibc
#endif

/// A store's file opened for reading by a command (`viewhost check`, `viewhost backup`), leaving nothing beside it:
/// SQLite opening a store read-only still makes a `-shm` (and keeps a `-wal`) next to it, and cannot open one in a
/// directory it may not write. So while a server runs (it holds the directory's lock, and the `-wal` and `-shm`
/// exist) the live files are read through a read-only connection; otherwise the database and its log are copied
/// into a private temporary directory and the copy is opened there (SQLite replays the log into it), then removed.
/// Either way the data directory is only read: a read-only copy of it works too.
final class ReadableStore: Sendable {
    /// The database as opened (the store's own file, or the copy of it).
    let queue: DatabaseQueue
    /// The store's database file.
    let path: String
    /// The temporary directory holding the copy, removed when this goes.
    private let copy: String?

    /// SQLite cannot read the store's file at all (a damaged header or schema): one line saying why.
    struct Damaged: Error {
        let path: String
        let reason: String
    }

    /// Opens the store in `directory` for reading.
    /// - Throws: ``StorageError/noStore(path:)`` when there is no store there;
    ///   ``StorageError/unusable(path:reason:)`` when it is not a ViewHost store or is newer; ``Damaged`` when
    ///   SQLite finds it damaged.
    init(directory: String) throws {
        path = (directory as NSString).appendingPathComponent(SQLiteSessionStorage.fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            throw StorageError.noStore(path: path)
        }
        var configuration = Configuration()
        do {
            if DataDirectoryLock.isHeld(in: directory) {
                // Beside a running server, whose connections hold the file's locks for moments (a checkpoint, the
                // last one closing as it stops): wait as the server's own connections do, not fail at once.
                configuration.readonly = true
                configuration.busyMode = .timeout(10)
                copy = nil
                queue = try DatabaseQueue(path: path, configuration: configuration)
            } else {
                let copy = try Self.temporaryCopy(of: path)
                self.copy = copy
                do {
                    queue = try DatabaseQueue(
                        path: (copy as NSString).appendingPathComponent(SQLiteSessionStorage.fileName))
                } catch {
                    // Not opened, so never deinitialized: the copy of the user's data goes now, not left in /tmp.
                    try? FileManager.default.removeItem(atPath: copy)
                    throw error
                }
            }
            try queue.read { db in
                let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                guard applicationID == SQLiteSchema.applicationID else {
                    throw StorageError.unusable(
                        path: path, reason: "not a ViewHost store (another application's database)")
                }
                if try SQLiteSchema.migrator.hasBeenSuperseded(db) {
                    throw StorageError.unusable(path: path, reason: "written by a newer ViewHost")
                }
            }
        } catch let error as StorageError {
            throw error
        } catch  where StoreAudit.isDamage(error) {
            throw Damaged(path: path, reason: "it is damaged: " + StoreAudit.damage(of: path, error: error))
        } catch {
            throw StorageError.unusable(path: path, reason: SQLiteSessionStorage.describe(error))
        }
    }

    deinit {
        try? queue.close()
        if let copy { try? FileManager.default.removeItem(atPath: copy) }
    }

    /// A private directory holding copies of `path` and its `-wal` (when there is one).
    private static func temporaryCopy(of path: String) throws -> String {
        var template = Array(
            (NSTemporaryDirectory() as NSString).appendingPathComponent("viewhost-read-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw StorageError.unusable(
                path: path, reason: "cannot make a temporary directory: \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: made)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(
                atPath: path + suffix,
                toPath: (directory as NSString).appendingPathComponent(SQLiteSessionStorage.fileName + suffix))
        }
        return directory
    }
}
