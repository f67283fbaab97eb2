/// The store's tables in PostgreSQL, as numbered migrations recorded in `schema_version`: a database made by any
/// earlier version is brought up to date when a node opens it (one node at a time, under an advisory lock); one
/// made by a newer version is refused.
///
/// - `sessions`: one row per session: the digest of its token (hex; never the token), its times, the snapshot of
///   its value (JSON, with the journal number it includes), the number of its last journal record, when its
///   earliest timer falls due, and its **lease**: the node that owns it and the epoch of that ownership. Taking a
///   session over raises the epoch; every journal write names the epoch it was made under and is refused unless it
///   is still the session's (fencing). Since 4 the row is no longer written for every record (the number of the
///   last one is the journal's). An expired session keeps only a tombstone: its digest and `expired_at`.
/// - `journal`: the inputs after the snapshot, by session and number: `record` in ViewHost's record format since 4
///   (docs/JOURNAL.md), `input` (the JSON of the synthesized `Codable` shape) before it, still read.
/// - `feature_schemas` (since 2): the oldest and newest schema version of each feature the sessions may hold
///   (`StoredSchemas`), checked when a node starts; since 6 with the shape of its stored values at the newest
///   (`StoredShape`), so a node whose feature changed that shape without a new version is refused.
/// - `checkpoints` (since 3): a session's history, when history is kept (`sessions.historyVersions`): every
///   snapshot taken while within it, by session and number, with each feature's version there (JSON); the
///   journal then keeps the records after the oldest. A load still reads `sessions.snapshot`.
/// - `nodes` (since 5): each node's lease: its name, the internal address other nodes forward requests to, and
///   when its lease ends (seconds since 1970 on the database's clock; renewed every second, 5 s ahead). A session
///   whose owner's lease holds stays with that owner; another node forwards its requests there.
/// - `invitations` and `contacts` (since 7): the invitations sessions hand out (the SHA-256 of each code, never the
///   code; what it makes, when it expires, the uses left, withdrawn or not), kept a day past their expiry so a late
///   redeem hears `410`; and the contact addresses made by redeeming one, each leading from one session's feature
///   (`session_id`) to another session (`peer_id`), which knows the owner by `peer_address`. Removing or expiring a
///   session removes its invitations and the addresses it owns. (``ContactDirectory``,
///   PostgresSessionStorage+Contacts.)
/// - `join_invitations` and `participants` (since 8): the invitations to join a shared session (the SHA-256 of each
///   code; the features and role they give, expiry, uses left, withdrawn or not) and the participants they let in
///   (name, role, features, the SHA-256 of the secret, when joined and when removed: a removed participant is
///   refused by every node). Removing or expiring a session removes both. (``ParticipantDirectory``,
///   PostgresSessionStorage+Participants.)
enum PostgresSchema {
    /// The advisory lock key migrations run under ("VHST").
    static let migrationLock = "1447580500"

    /// Every migration, oldest first: its number and its statements.
    static let migrations: [(version: Int, sql: String)] = [
        (
            1,
            """
            CREATE TABLE sessions (
                id text PRIMARY KEY,
                token_digest text NOT NULL,
                created_at double precision NOT NULL,
                last_access double precision NOT NULL,
                expired_at double precision,
                snapshot text,
                snapshot_number bigint NOT NULL DEFAULT 0,
                last_number bigint NOT NULL DEFAULT 0,
                next_due_at double precision,
                owner text,
                epoch bigint NOT NULL DEFAULT 1
            );
            CREATE TABLE journal (
                session_id text NOT NULL,
                number bigint NOT NULL,
                input text NOT NULL,
                PRIMARY KEY (session_id, number)
            );
            CREATE INDEX sessions_by_due ON sessions (next_due_at) WHERE next_due_at IS NOT NULL;
            CREATE INDEX sessions_by_access ON sessions (last_access) WHERE expired_at IS NULL;
            CREATE INDEX sessions_by_expiry ON sessions (expired_at) WHERE expired_at IS NOT NULL;
            """
        ),
        (
            2,
            // What the sessions stored so far hold: each feature of each stored value, at its slot's schema version
            // (1 where none is recorded, as in every value stored before schema versions existed).
            """
            CREATE TABLE feature_schemas (
                feature text PRIMARY KEY,
                oldest integer NOT NULL,
                newest integer NOT NULL
            );
            INSERT INTO feature_schemas (feature, oldest, newest)
                SELECT f->>'name', min(coalesce((f->'slot'->>'schema')::integer, 1)),
                    max(coalesce((f->'slot'->>'schema')::integer, 1))
                FROM sessions, json_array_elements(snapshot::json->'features') AS f
                WHERE snapshot IS NOT NULL GROUP BY 1;
            """
        ),
        (
            3,
            """
            CREATE TABLE checkpoints (
                session_id text NOT NULL,
                number bigint NOT NULL,
                versions text NOT NULL,
                core text NOT NULL,
                PRIMARY KEY (session_id, number)
            );
            """
        ),
        (
            4,
            // Records in ViewHost's format, and no row write per record; records written before stay (both read).
            """
            ALTER TABLE journal ADD COLUMN record bytea;
            ALTER TABLE journal ALTER COLUMN input DROP NOT NULL;
            ALTER TABLE sessions DROP COLUMN last_number;
            """
        ),
        (
            5,
            // The nodes' leases: where each takes requests from the others, and until when it counts as alive
            // (the database's clock, so nodes' clocks never matter).
            """
            CREATE TABLE nodes (
                name text PRIMARY KEY,
                address text NOT NULL,
                expires_at double precision NOT NULL
            );
            """
        ),
        (
            6,
            // Each feature's stored shape at its newest version, filled when a node starts.
            "ALTER TABLE feature_schemas ADD COLUMN shape text;"
        ),
        (
            7,
            // The contact directory (ContactDirectory): rows written when a session invites or redeems, never per
            // event; a session's pending deliveries are part of its value, so nothing of them is here.
            """
            CREATE TABLE invitations (
                id text PRIMARY KEY,
                session_id text NOT NULL,
                feature text NOT NULL,
                name text NOT NULL,
                digest bytea NOT NULL UNIQUE,
                created_at double precision NOT NULL,
                expires_at double precision NOT NULL,
                uses integer NOT NULL,
                withdrawn boolean NOT NULL DEFAULT false
            );
            CREATE INDEX invitations_by_session ON invitations (session_id);
            CREATE INDEX invitations_by_expiry ON invitations (expires_at);
            CREATE TABLE contacts (
                address text PRIMARY KEY,
                session_id text NOT NULL,
                feature text NOT NULL,
                peer_id text NOT NULL,
                peer_address text NOT NULL,
                name text NOT NULL,
                created_at double precision NOT NULL
            );
            CREATE INDEX contacts_by_session ON contacts (session_id, peer_id, feature);
            """
        ),
        (
            8,
            // The participants of shared sessions and their join invitations (ParticipantDirectory): written when a
            // session invites, someone joins or a participant is removed, never per event. A removed participant
            // keeps its row (`removed_at`), so its token answers 401 on every node.
            """
            CREATE TABLE join_invitations (
                id text PRIMARY KEY,
                session_id text NOT NULL,
                features text NOT NULL,
                role text NOT NULL,
                digest bytea NOT NULL UNIQUE,
                created_at double precision NOT NULL,
                expires_at double precision NOT NULL,
                uses integer NOT NULL,
                withdrawn boolean NOT NULL DEFAULT false
            );
            CREATE INDEX join_invitations_by_session ON join_invitations (session_id);
            CREATE INDEX join_invitations_by_expiry ON join_invitations (expires_at);
            CREATE TABLE participants (
                session_id text NOT NULL,
                id text NOT NULL,
                name text NOT NULL,
                role text NOT NULL,
                features text NOT NULL,
                token_digest bytea NOT NULL,
                joined_at double precision NOT NULL,
                removed_at double precision,
                PRIMARY KEY (session_id, id)
            );
            """
        ),
    ]

    /// The newest schema this version knows.
    static var currentVersion: Int { migrations.last?.version ?? 0 }

    /// Brings the database up to date, under an advisory lock so nodes starting together migrate once.
    /// - Throws: ``PostgresSchemaError/newer(_:)`` when the database has migrations this version lacks.
    static func migrate(_ connection: PostgresConnection) throws(PostgresSchemaError) {
        do {
            try connection.transaction { () throws(PostgresError) in
                try connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))")
                try connection.query("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
                let found = try connection.query("SELECT coalesce(max(version), 0) FROM schema_version")
                let version = Int(found.rows.first?.first.flatMap { $0 } ?? "0") ?? 0
                guard version <= currentVersion else {
                    throw PostgresError.server(state: "newer", message: "\(version)")
                }
                for migration in migrations where migration.version > version {
                    try connection.execute(migration.sql)
                    try connection.query(
                        "INSERT INTO schema_version (version) VALUES ($1)", [String(migration.version)])
                }
            }
        } catch .server(state: "newer", let message) {
            throw .newer(Int(message) ?? 0)
        } catch {
            throw .failed(error)
        }
    }
}
