import Foundation
import ViewModelCore

/// The feature schema versions the shared sessions may hold (``StoredSchemas``), kept in `feature_schemas` with
/// each feature's stored shape (``StoredShape``) and checked when a node starts, as the SQLite store does: a
/// database holding feature data this build cannot read refuses the node, naming the feature and the version (or
/// the member whose shape changed).
extension PostgresSessionStorage {
    /// Why the database cannot be served by a build with these feature types.
    enum SchemaCheck: Error {
        /// Its sessions hold feature data this build cannot read.
        case unreadable(SchemaError, StoredSchemas)
        /// A feature's stored shape changed while its schema version did not.
        case shapeChanged(SchemaError)
        /// A stored value or journal record is not ours.
        case undecodable(String)
        case database(PostgresError)
    }

    /// Refuses the database when its sessions hold feature data `features` cannot read (reading every stored value
    /// and journal record for the exact answer first, when the kept bound fails), or when a feature's stored shape
    /// changed while its schema version did not; otherwise records `features`' own versions and shapes as written
    /// from now on. Nodes starting together take turns (an advisory lock).
    static func checkFeatureSchemas(_ connection: PostgresConnection, features: FeatureTypes) throws(SchemaCheck) {
        var refusal: SchemaCheck?
        do {
            try connection.transaction { () throws(PostgresError) in
                try connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock))")
                var stored = try keptSchemas(connection)
                if (try? features.check(stored)) == nil {
                    do throws(SchemaCheck) {
                        stored = try scanSchemas(connection)
                        do throws(SchemaError) {
                            try features.check(stored)
                        } catch {
                            throw .unreadable(error, stored)
                        }
                    } catch .database(let error) {
                        throw error
                    } catch {
                        refusal = error
                        return
                    }
                }
                let shapes = try keptShapes(connection)
                do throws(SchemaError) {
                    for kept in shapes {
                        try features.checkShape(of: kept.feature, kept: kept.shape, version: kept.newest)
                    }
                } catch {
                    refusal = .shapeChanged(error)
                    return
                }
                try keep(stored.merging(features.written), features: features, connection)
            }
        } catch {
            throw .database(error)
        }
        if let refusal { throw refusal }
    }

    private static func keptSchemas(_ connection: PostgresConnection) throws(PostgresError) -> StoredSchemas {
        var stored = StoredSchemas()
        for row in try connection.query("SELECT feature, oldest, newest FROM feature_schemas").rows {
            guard let feature = row[0], let oldest = row[1].flatMap({ Int($0) }),
                let newest = row[2].flatMap({ Int($0) })
            else { continue }
            stored.add(feature, versions: oldest...max(oldest, newest))
        }
        return stored
    }

    /// The shape kept of each feature with its newest version, in name order (the first refusal is the same every
    /// time).
    private static func keptShapes(
        _ connection: PostgresConnection
    ) throws(PostgresError) -> [(feature: String, newest: Int, shape: String)] {
        let found = try connection.query(
            "SELECT feature, newest, shape FROM feature_schemas WHERE shape IS NOT NULL ORDER BY feature")
        return found.rows.compactMap { row in
            guard let feature = row[0], let newest = row[1].flatMap({ Int($0) }), let shape = row[2] else { return nil }
            return (feature, newest, shape)
        }
    }

    /// Replaces what `feature_schemas` holds with `schemas`, each feature `features` registers with its shape (this
    /// build's, which it writes from now on).
    private static func keep(
        _ schemas: StoredSchemas, features: FeatureTypes, _ connection: PostgresConnection
    ) throws(PostgresError) {
        try connection.query("DELETE FROM feature_schemas")
        for (feature, range) in schemas.versions.sorted(by: { $0.key < $1.key }) {
            try connection.query(
                "INSERT INTO feature_schemas (feature, oldest, newest, shape) VALUES ($1, $2, $3, $4)",
                [feature, String(range.lowerBound), String(range.upperBound), features.shape(of: feature)?.text])
        }
    }

    /// The exact versions: every live session's stored value, and every journal record after it.
    private static func scanSchemas(_ connection: PostgresConnection) throws(SchemaCheck) -> StoredSchemas {
        var stored = StoredSchemas()
        let values: PostgresResult
        let inputs: PostgresResult
        do {
            values = try connection.query("SELECT id, snapshot FROM sessions WHERE snapshot IS NOT NULL")
            inputs = try connection.query(
                """
                SELECT j.session_id, j.input, j.record FROM journal j
                    JOIN sessions s ON s.id = j.session_id AND j.number > s.snapshot_number
                """)
        } catch {
            throw .database(error)
        }
        for row in values.rows {
            do {
                try stored.add(storedValue: Data((row[1] ?? "").utf8))
            } catch {
                throw .undecodable("session \(row[0] ?? "?")'s snapshot is not a stored session")
            }
        }
        for row in inputs.rows {
            guard let record = PostgresSessionStorage.record(row[1], row[2]),
                let input = try? JournalRecordFormat.decode(record)
            else {
                throw .undecodable("a journal record of session \(row[0] ?? "?") is not a stored input")
            }
            stored.add(input: input)
        }
        return stored
    }
}
