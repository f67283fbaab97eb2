import Foundation
import GRDB
import ViewModelCore

/// Direct reads and writes of a store file, to check what the storage left there and to make broken files.
enum SQLiteTestQueries {
    static func execute(_ sql: String, at path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
    }

    static func journalRows(in directory: String, of id: SessionID) throws -> Int {
        try read(directory) { try Int.fetchOne($0, sql: "SELECT count(*) FROM journal WHERE session_id = ?", arguments: [id.rawValue]) } ?? 0
    }

    static func firstSessionID(in directory: String) throws -> SessionID? {
        try read(directory) { try String.fetchOne($0, sql: "SELECT id FROM sessions LIMIT 1") }.map(SessionID.init)
    }

    private static func read<T>(_ directory: String, _ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: directory + "/viewhost.sqlite", configuration: configuration)
        defer { try? queue.close() }
        return try queue.read(body)
    }
}
