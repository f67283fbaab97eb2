import GRDB

/// The store's tables, as versioned migrations (GRDB's `DatabaseMigrator`): a database made by any earlier
/// version is brought up to date when it opens; one made by a newer version is refused.
///
/// - `sessions`: one small row per session: the digest of its token, its times, and when its earliest timer falls
///   due (so a restart loads the sessions that have something to do). Written when the session is made, when its
///   earliest timer moves and when its last access is written behind; until v5 it also held the number of the last
///   journal record, and every event rewrote it. An expired session keeps only a tombstone: its digest and
///   `expired_at`.
/// - `snapshots` (since v2): the snapshot of each session's value and the journal number it includes,
///   written every 64 to 256 inputs. In v1 it was a column of `sessions`, so every event rewrote the whole snapshot with
///   the row (a chat's grows with its messages: 40 KB after 20, and overflow pages to copy on every send).
/// - `journal`: the inputs after the snapshot, by session and number: each in ``JournalRecordFormat`` since v5
///   (before, the JSON of ``SessionInput``'s synthesized `Codable`, still read); the snapshot's `core` likewise in
///   ``StoredValueFormat`` (before, the bare JSON).
/// - `heartbeat`: one row the writer rewrites, with `reserve` as large as a busy batch of events, to find out
///   whether the disk takes writes again after a failure.
/// - `feature_schemas` (since v3): the oldest and newest schema version of each feature the sessions may hold
///   (`StoredSchemas`), checked when the store opens; filled by reading every session once when it is made.
/// - Since v4, `snapshots` keeps a session's history: every snapshot taken while it is within the history kept
///   (`sessions.historyVersions` inputs back), by session and number, with each feature's version there (JSON;
///   null for a snapshot written before v4), and the journal records after the oldest. `load` reads the newest.
/// - `ledger_guard` (since v6): one row, `required` 1 from a server's start until it stops cleanly. Meanwhile the
///   write-ahead log may hold acknowledged commits the file does not, and only the ledger beside it
///   (``CommitLedger``) can tell whether they were lost: a missing one is damage then, not a ledger with nothing in
///   it. A clean stop, `viewhost repair` and a backup's copy (everything is in the file) set it to 0.
/// - `sessions.ended_by_repair` (since v6): 1 on a tombstone `viewhost repair` left (the session lost acknowledged
///   records), so its holder is told that rather than that it expired.
/// - `invitations` and `contacts` (since v8): the invitations sessions hand out (the SHA-256 of each code, never the
///   code; what it makes, when it expires, the uses left, withdrawn or not), kept a day past their expiry so a late
///   redeem hears `410`; and the contact addresses made by redeeming one, each leading from one session's feature
///   (`session_id`) to another session (`peer_id`), which knows the owner by `peer_address`. Removing a session
///   removes its invitations and the addresses it owns. (``ContactDirectory``, SQLiteSessionStorage+Contacts.)
/// - `join_invitations` and `participants` (since v9): the invitations to join a session (the SHA-256 of each code,
///   the features and role they give, expiry, uses left, withdrawn or not) and the participants they let in (name,
///   role, features, the SHA-256 of the secret, when joined and when removed). Removing a session removes both.
///   (``ParticipantDirectory``, SQLiteSessionStorage+Participants.)
/// - `feature_schemas.shape` (since v7): the shape of each feature's stored values at its newest version
///   (`StoredShape.text`), written by the build that opened the store last; a build with the same schema version
///   and a shape that no longer reads it refuses the store, naming the feature and the member.
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
        migrator.registerMigration("v2: snapshots in their own table") { db in
            try db.execute(
                sql: """
                    CREATE TABLE snapshots (
                        session_id TEXT PRIMARY KEY NOT NULL,
                        number INTEGER NOT NULL,
                        core BLOB NOT NULL
                    );
                    INSERT INTO snapshots (session_id, number, core)
                        SELECT id, snapshot_number, snapshot FROM sessions WHERE snapshot IS NOT NULL;
                    ALTER TABLE sessions DROP COLUMN snapshot;
                    ALTER TABLE sessions DROP COLUMN snapshot_number;
                    """)
        }
        migrator.registerMigration("v3: feature schema versions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE feature_schemas (
                        feature TEXT PRIMARY KEY NOT NULL,
                        oldest INTEGER NOT NULL,
                        newest INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    """)
            // What the sessions stored so far hold, read once.
            try SQLiteSessionStorage.keep(SQLiteSessionStorage.scanSchemas(db), db)
        }
        migrator.registerMigration("v4: snapshots as history checkpoints") { db in
            try db.execute(
                sql: """
                    CREATE TABLE snapshots_v4 (
                        session_id TEXT NOT NULL,
                        number INTEGER NOT NULL,
                        versions TEXT,
                        core BLOB NOT NULL,
                        PRIMARY KEY (session_id, number)
                    );
                    INSERT INTO snapshots_v4 (session_id, number, core) SELECT session_id, number, core FROM snapshots;
                    DROP TABLE snapshots;
                    ALTER TABLE snapshots_v4 RENAME TO snapshots;
                    """)
        }
        migrator.registerMigration("v5: records in ViewHost's format, no row write per record") { db in
            // A record's number is the journal's (or the snapshot's): the row is no longer rewritten for every
            // record. Records and values written before stay as they are (both formats are read); an older build
            // refuses this store rather than misread it.
            try db.execute(sql: "ALTER TABLE sessions DROP COLUMN last_number")
        }
        migrator.registerMigration("v6: the ledger's guard, sessions ended by repair") { db in
            try db.execute(
                sql: """
                    CREATE TABLE ledger_guard (id INTEGER PRIMARY KEY CHECK (id = 1), required INTEGER NOT NULL);
                    INSERT INTO ledger_guard (id, required) VALUES (1, 0);
                    ALTER TABLE sessions ADD COLUMN ended_by_repair INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        migrator.registerMigration("v7: feature shapes") { db in
            // Filled when a build opens the store: stores written before have none to compare.
            try db.execute(sql: "ALTER TABLE feature_schemas ADD COLUMN shape TEXT")
        }
        migrator.registerMigration("v8: invitations and contact addresses") { db in
            // Rows of their own, written when a session invites or redeems (never per event); a session's pending
            // deliveries are part of its value, so nothing of them is here.
            try db.execute(
                sql: """
                    CREATE TABLE invitations (
                        id TEXT PRIMARY KEY NOT NULL,
                        session_id TEXT NOT NULL,
                        feature TEXT NOT NULL,
                        name TEXT NOT NULL,
                        digest BLOB NOT NULL UNIQUE,
                        created_at REAL NOT NULL,
                        expires_at REAL NOT NULL,
                        uses INTEGER NOT NULL,
                        withdrawn INTEGER NOT NULL DEFAULT 0
                    ) WITHOUT ROWID;
                    CREATE INDEX invitations_by_session ON invitations (session_id);
                    CREATE INDEX invitations_by_expiry ON invitations (expires_at);
                    CREATE TABLE contacts (
                        address TEXT PRIMARY KEY NOT NULL,
                        session_id TEXT NOT NULL,
                        feature TEXT NOT NULL,
                        peer_id TEXT NOT NULL,
                        peer_address TEXT NOT NULL,
                        name TEXT NOT NULL,
                        created_at REAL NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX contacts_by_session ON contacts (session_id, peer_id, feature);
                    """)
        }
        migrator.registerMigration("v9: participants and join invitations") { db in
            // Written when a session invites, someone joins or a participant is removed, never per event. A removed
            // participant keeps its row (`removed_at`), so its token answers 401 rather than 404.
            try db.execute(
                sql: """
                    CREATE TABLE join_invitations (
                        id TEXT PRIMARY KEY NOT NULL,
                        session_id TEXT NOT NULL,
                        features TEXT NOT NULL,
                        role TEXT NOT NULL,
                        digest BLOB NOT NULL UNIQUE,
                        created_at REAL NOT NULL,
                        expires_at REAL NOT NULL,
                        uses INTEGER NOT NULL,
                        withdrawn INTEGER NOT NULL DEFAULT 0
                    ) WITHOUT ROWID;
                    CREATE INDEX join_invitations_by_session ON join_invitations (session_id);
                    CREATE INDEX join_invitations_by_expiry ON join_invitations (expires_at);
                    CREATE TABLE participants (
                        session_id TEXT NOT NULL,
                        id TEXT NOT NULL,
                        name TEXT NOT NULL,
                        role TEXT NOT NULL,
                        features TEXT NOT NULL,
                        token_digest BLOB NOT NULL,
                        joined_at REAL NOT NULL,
                        removed_at REAL,
                        PRIMARY KEY (session_id, id)
                    ) WITHOUT ROWID;
                    """)
        }
        return migrator
    }
}
