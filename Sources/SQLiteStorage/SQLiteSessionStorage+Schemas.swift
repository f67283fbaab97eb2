import Foundation
import GRDB
import ViewModelCore

/// The feature schema versions the store's sessions may hold (``StoredSchemas``), kept in `feature_schemas` and
/// checked when the store opens: a store holding feature data this build cannot read refuses to open, naming the
/// feature and the version, instead of failing the session when a client asks for it.
extension SQLiteSessionStorage {
    /// Refuses the store when its sessions hold feature data `features` cannot read (reading every stored value and
    /// journal record for the exact answer first, when the kept bound fails).
    /// - Returns: What the store may hold once this build writes to it (for ``recordFeatureSchemas(_:in:)``).
    /// - Throws: ``StorageError/unusable(path:reason:)`` naming the feature and the version.
    static func checkFeatureSchemas(_ pool: DatabasePool, path: String, features: FeatureTypes) throws -> StoredSchemas {
        try pool.read { db in
            var stored = try keptSchemas(db)
            do {
                try features.check(stored)
            } catch {
                stored = try scanSchemas(db)
                do {
                    try features.check(stored)
                } catch {
                    throw StorageError.unusable(path: path, reason: "\(error) (stored: \(stored))")
                }
            }
            return stored.merging(features.written)
        }
    }

    /// Records `schemas` (from ``checkFeatureSchemas(_:path:features:)``) as what the store may hold.
    static func recordFeatureSchemas(_ schemas: StoredSchemas, in pool: DatabasePool) throws {
        try pool.write { db in try keep(schemas, db) }
    }

    /// What `feature_schemas` holds.
    static func keptSchemas(_ db: Database) throws -> StoredSchemas {
        var stored = StoredSchemas()
        for row in try Row.fetchAll(db, sql: "SELECT feature, oldest, newest FROM feature_schemas") {
            let oldest: Int = row["oldest"]
            let newest: Int = row["newest"]
            stored.add(row["feature"], versions: oldest...max(oldest, newest))
        }
        return stored
    }

    /// Replaces what `feature_schemas` holds with `schemas`.
    static func keep(_ schemas: StoredSchemas, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM feature_schemas")
        for (feature, range) in schemas.versions {
            try db.execute(
                sql: "INSERT INTO feature_schemas (feature, oldest, newest) VALUES (?, ?, ?)",
                arguments: [feature, range.lowerBound, range.upperBound])
        }
    }

    /// The exact versions: every session's stored values (its snapshots, past ones kept for its history too), and
    /// every journal record kept.
    static func scanSchemas(_ db: Database) throws -> StoredSchemas {
        var stored = StoredSchemas()
        let values = try Row.fetchCursor(db, sql: "SELECT core FROM snapshots")
        while let row = try values.next() { try stored.add(storedValue: StoredValueFormat.json(row["core"])) }
        let inputs = try Row.fetchCursor(db, sql: "SELECT input FROM journal")
        while let row = try inputs.next() { stored.add(input: try JournalRecordFormat.decode(row["input"] as Data)) }
        return stored
    }
}
