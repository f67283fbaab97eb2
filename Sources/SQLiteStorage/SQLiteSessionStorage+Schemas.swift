import Foundation
import GRDB
import ViewModelCore

/// The feature schema versions the store's sessions may hold (``StoredSchemas``), kept in `feature_schemas` with
/// the shape of each feature's newest (``StoredShape``) and checked when the store opens: a store holding feature
/// data this build cannot read refuses to open, naming the feature and the version (or the member whose shape
/// changed), instead of failing the session when a client asks for it.
extension SQLiteSessionStorage {
    /// Refuses the store when its sessions hold feature data `features` cannot read (reading every stored value and
    /// journal record for the exact answer first, when the kept bound fails), then a feature whose stored shape
    /// changed while its schema version did not (``StoredShape``): its sessions would otherwise fail one by one when
    /// clients ask for them.
    /// - Returns: What the store may hold once this build writes to it (for
    ///   ``recordFeatureSchemas(_:features:in:)``).
    /// - Throws: ``StorageError/unusable(path:reason:)`` naming the feature and the version, or the member.
    static func checkFeatureSchemas(_ pool: DatabasePool, path: String, features: FeatureTypes) throws -> StoredSchemas
    {
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
            do {
                try checkShapes(db, features: features)
            } catch {
                throw StorageError.unusable(path: path, reason: "\(error)")
            }
            return stored.merging(features.written)
        }
    }

    /// Refuses a feature whose shape kept in `feature_schemas` (with its newest version) this build's no longer
    /// reads, at the same schema version (``FeatureTypes/checkShape(of:kept:version:)``); in name order, so the
    /// message is the same every time. A store read without being migrated (`viewhost check`) may have no shapes.
    static func checkShapes(_ db: Database, features: FeatureTypes) throws {
        guard try db.columns(in: "feature_schemas").contains(where: { $0.name == "shape" }) else { return }
        let rows = try Row.fetchAll(
            db, sql: "SELECT feature, newest, shape FROM feature_schemas WHERE shape IS NOT NULL ORDER BY feature")
        for row in rows {
            try features.checkShape(of: row["feature"], kept: row["shape"], version: row["newest"])
        }
    }

    /// Records `schemas` (from ``checkFeatureSchemas(_:path:features:)``) as what the store may hold, with the
    /// shape of each feature `features` registers at its newest version (this build's, which it writes from now on).
    /// Nothing is written when the store holds that already (a restart of the same build): the rows are left as
    /// they are.
    static func recordFeatureSchemas(_ schemas: StoredSchemas, features: FeatureTypes, in pool: DatabasePool) throws {
        let shapes = schemas.versions.keys.reduce(into: [String: String]()) { shapes, feature in
            shapes[feature] = features.shape(of: feature)?.text
        }
        try pool.write { db in
            let kept = try Row.fetchAll(db, sql: "SELECT feature, shape FROM feature_schemas").reduce(
                into: [String: String]()
            ) { kept, row in kept[row["feature"]] = row["shape"] }
            guard try keptSchemas(db) != schemas || kept != shapes else { return }
            try keep(schemas, db)
            for (feature, shape) in shapes.sorted(by: { $0.key < $1.key }) {
                try db.execute(
                    sql: "UPDATE feature_schemas SET shape = ? WHERE feature = ?", arguments: [shape, feature])
            }
        }
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
