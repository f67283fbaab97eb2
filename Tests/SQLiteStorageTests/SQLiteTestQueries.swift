import Foundation
import GRDB
import ViewModelCore

/// Direct reads and writes of a store file, to check what the storage left there and to make broken files.
///
/// Their connections wait for locks as the store's own do (a busy timeout): a store still open in the test, or one
/// let go whose pool closes on another thread, briefly holds the file's exclusive lock while its last connection
/// removes the -wal, and a connection opened then without a timeout fails at once with SQLITE_BUSY.
enum SQLiteTestQueries {
    static func execute(_ sql: String, at path: String) throws {
        let queue = try DatabaseQueue(path: path, configuration: configuration(readonly: false))
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
    }

    static func journalRows(in directory: String, of id: SessionID) throws -> Int {
        try read(directory) { try Int.fetchOne($0, sql: "SELECT count(*) FROM journal WHERE session_id = ?", arguments: [id.rawValue]) } ?? 0
    }

    /// The numbers of the snapshots kept of session `id`, oldest first.
    static func snapshotNumbers(in directory: String, of id: SessionID) throws -> [Int] {
        try read(directory) {
            try Int.fetchAll($0, sql: "SELECT number FROM snapshots WHERE session_id = ? ORDER BY number", arguments: [id.rawValue])
        }
    }

    static func firstSessionID(in directory: String) throws -> SessionID? {
        try read(directory) { try String.fetchOne($0, sql: "SELECT id FROM sessions LIMIT 1") }.map(SessionID.init)
    }

    private static func read<T>(_ directory: String, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: directory + "/viewhost.sqlite", configuration: configuration(readonly: true))
        defer { try? queue.close() }
        return try queue.read(body)
    }

    private static func configuration(readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.busyMode = .timeout(10)
        return configuration
    }
}
