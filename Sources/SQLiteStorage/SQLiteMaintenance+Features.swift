import Foundation
import GRDB
import ViewModelCore

/// What `viewhost check` finds of the app's features in a store: the schema versions and shapes its sessions hold
/// that the app does not read (what the start refuses), and every live session decoded with the app's features,
/// its journal replayed, as a load would (a session that does not decode answers `500` when a client asks for it).
extension SQLiteMaintenance {
    /// The findings, a few lines at most: each refusal the start would make, then how many sessions do not decode
    /// and the first three, each naming the feature, the member and the stored version.
    static func featureFindings(_ db: Database, path: String, features: FeatureTypes) throws -> [String] {
        var findings: [String] = []
        let stored = try SQLiteSessionStorage.scanSchemas(db)
        do {
            try features.check(stored)
        } catch {
            findings.append("\(error) (stored: \(stored)); serve refuses this store")
        }
        do {
            try SQLiteSessionStorage.checkShapes(db, features: features)
        } catch {
            findings.append("\(error); serve refuses this store")
        }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT sessions.id, snapshots.core, snapshots.number
                FROM sessions JOIN snapshots ON snapshots.session_id = sessions.id
                    AND snapshots.number = (SELECT max(number) FROM snapshots WHERE session_id = sessions.id)
                WHERE sessions.expired_at IS NULL ORDER BY sessions.id
                """)
        var undecodable: [String] = []
        for row in rows {
            let id = SessionID(row[0])
            do {
                _ = try SQLiteSessionStorage.value(
                    of: id, snapshot: row[1], number: row[2], features: features, path: path, db)
            } catch is StorageError {
                continue  // a gap in its journal: the journals' examination says so
            } catch let error as StoredFeatureError {
                undecodable.append("session \(id): \(error)")
            } catch ReplayError.undecodable(let error) {
                undecodable.append("session \(id): \(error)")
            } catch let error as DatabaseError {
                throw error
            } catch {
                undecodable.append("session \(id): \(error)")
            }
        }
        if !undecodable.isEmpty {
            findings.append(
                "\(undecodable.count) of \(rows.count) sessions do not decode with this build's features (each answers "
                    + "500): " + undecodable.prefix(3).joined(separator: "; ") + (undecodable.count > 3 ? "; …" : ""))
        }
        return findings
    }
}
