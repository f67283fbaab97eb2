import GRDB

/// The store's tables, as versioned migrations (GRDB's `DatabaseMigrator`): a database made by any earlier
/// version is brought up to date when it opens; one made by a newer version is refused.
///
/// - `sessions`: one row per session: the digest of its token, its times, the snapshot of its value (JSON, with
///   the journal number it includes), the number of its last journal record, and when its earliest timer falls
///   due (so a restart loads the sessions that have something to do). An expired session keeps only a tombstone:
///   its digest and `expired_at`.
/// - `journal`: the inputs after the snapshot, by session and number.
/// - `heartbeat`: one row the writer rewrites, with `reserve` as large as a busy batch of events, to find out
///   whether the disk takes writes again after a failure.
enum SQLiteSchema {
    /// `PRAGMA application_id` of a ViewHost store ("VHST"): a file with another id is not ours.
    static let applicationID: Int32 = 0x5648_5354

    /// Every migration, oldest first.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: sessions and journal") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sessions (
                        id TEXT PRIMARY KEY NOT NULL,
                        token_digest BLOB NOT NULL,
                        created_at REAL NOT NULL,
                        last_access REAL NOT NULL,
                        expired_at REAL,
                        snapshot BLOB,
                        snapshot_number INTEGER NOT NULL DEFAULT 0,
                        last_number INTEGER NOT NULL DEFAULT 0,
                        next_due_at REAL
                    ) WITHOUT ROWID;
                    CREATE TABLE journal (
                        session_id TEXT NOT NULL,
                        number INTEGER NOT NULL,
                        input BLOB NOT NULL,
                        PRIMARY KEY (session_id, number)
                    ) WITHOUT ROWID;
                    CREATE INDEX sessions_by_due ON sessions (next_due_at) WHERE next_due_at IS NOT NULL;
                    CREATE INDEX sessions_by_access ON sessions (last_access) WHERE expired_at IS NULL;
                    CREATE INDEX sessions_by_expiry ON sessions (expired_at) WHERE expired_at IS NOT NULL;
                    CREATE TABLE heartbeat (id INTEGER PRIMARY KEY CHECK (id = 1), at REAL NOT NULL, reserve BLOB);
                    """)
        }
        return migrator
    }
}
