import Foundation
import Synchronization
import ViewHostLocking
import ViewModelCore

/// PostgresStorage is the store several nodes share: sessions (token digests only), their journals and snapshots in
/// PostgreSQL, through libpq. It implements ViewModelCore's ``SessionStorage`` seam and knows nothing of HTTP or of
/// any feature.
///
/// Ownership: each session row carries a lease (owner node, epoch). Loading a session takes it over: in one
/// transaction the row is locked, the epoch raised and the owner set, the value read (snapshot + journal replay),
/// and the previous owner told (`NOTIFY`) to drop its copy. Every journal write is fenced by the epoch it was
/// queued under, so a node that was paused, cut off or simply slower can never write after another node took the
/// session over. See docs/SCALING.md for the design and its bounds.
///
/// Every libpq call runs on the storage's own threads: the writer's serial queue (group commit), the listener's
/// thread, and the callers of ``load(_:)`` (which the app runs off its event loops).
///
/// ```swift
/// let storage = try PostgresSessionStorage(url: "postgres://viewhost@127.0.0.1/viewhost", node: "node1", features: types)
/// let lookup = try storage.load(SessionID("…"))
/// ```
public final class PostgresSessionStorage: SharedSessionStorage {
    /// This node's name in leases and logs.
    public let node: String
    /// How many of each session's latest inputs are kept for its past versions (0: none).
    public let historyInputs: Int
    let features: FeatureTypes
    let pool: PostgresPool
    let writer: JournalWriter<PostgresStatements>
    let leases = PostgresLeases()
    let listener: PostgresReleaseListener
    let lease: PostgresNodeLease
    private let redactedURL: String
    private let takenOver = Atomic<Int>(0)
    /// The last copy number a load handed out (``StoredSession/copy``).
    private let copies = Atomic<Int>(0)

    /// Connects to `url`, brings its schema up to date and starts listening for takeovers.
    /// - Throws: ``StorageError/unreachable(reason:)`` when the database cannot be reached;
    ///   ``StorageError/unusable(path:reason:)`` when its schema is newer than this version's, or when its sessions
    ///   hold feature data `features` cannot read (a feature not registered, or a schema version it does not
    ///   migrate from).
    /// - Parameters:
    ///   - url: The database's `postgres://` URL (its password is never logged).
    ///   - node: This node's name, which its leases and log lines carry.
    ///   - features: The features whose stored data it reads.
    ///   - historyInputs: How many of each session's latest inputs are kept, with the snapshots they need, so its
    ///     past versions can be rebuilt (0: only what a load needs).
    public init(url: String, node: String, features: FeatureTypes, historyInputs: Int = 0) throws(StorageError) {
        self.node = node
        self.features = features
        self.historyInputs = max(0, historyInputs)
        redactedURL = PasswordRedaction.redacted(url)
        do {
            let connection = try PostgresConnection(url: url)
            try PostgresSchema.migrate(connection)
            try Self.checkFeatureSchemas(connection, features: features)
        } catch let error as SchemaCheck {
            switch error {
            case .unreadable(let error, let stored):
                throw .unusable(path: redactedURL, reason: "\(error) (stored: \(stored))")
            case .shapeChanged(let error):
                throw .unusable(path: redactedURL, reason: "\(error)")
            case .undecodable(let reason):
                throw .unusable(path: redactedURL, reason: reason)
            case .database(let error):
                throw .unreachable(reason: "\(redactedURL): \(Self.redact(error))")
            }
        } catch let error as PostgresError {
            throw .unreachable(reason: "\(redactedURL): \(Self.redact(error))")
        } catch let error as PostgresSchemaError {
            switch error {
            case .newer(let version):
                throw .unusable(
                    path: redactedURL,
                    reason:
                        "written by a newer ViewHost (schema version \(version), this one knows \(PostgresSchema.currentVersion))"
                )
            case .failed(let error):
                throw .unusable(path: redactedURL, reason: "cannot migrate: \(Self.redact(error))")
            }
        } catch {
            throw .unreachable(reason: "\(redactedURL): \(Self.redact(error))")
        }
        pool = PostgresPool(url: url, size: 4)
        writer = JournalWriter(
            label: "viewhost.postgres.writer",
            statements: PostgresStatements(url: url, node: node, historyInputs: self.historyInputs))
        listener = PostgresReleaseListener(url: url, node: node, leases: leases)
        lease = PostgresNodeLease(url: url, node: node)
        do {
            try listener.start()
        } catch {
            throw .unreachable(reason: "\(redactedURL): \(Self.redact(error))")
        }
    }

    // MARK: - Reads

    /// Takes session `id` over (raising its epoch; its previous owner is told to drop its copy) and returns its
    /// newest durable value. Blocks for a few round trips: call it off event loops.
    public func load(_ id: SessionID) throws(StorageError) -> StoredLookup {
        switch try lookUp(id, leavingLiveOwners: false, replacing: nil) {
        case .loaded(let lookup): lookup
        case .ownedElsewhere: .none  // not asked for: a load always takes over
        }
    }

    /// Takes session `id` over unless another node whose lease holds owns it (and has announced where it takes
    /// requests); that node is named then, and nothing changes.
    public func claim(_ id: SessionID) throws(StorageError) -> SessionClaim {
        try lookUp(id, leavingLiveOwners: true, replacing: nil)
    }

    /// Takes session `id` over unless another node whose lease holds owns it, `replaced` excepted (checked under
    /// the row's lock, in the transaction that takes it over: of two nodes replacing the same owner at once, the
    /// second finds the first owning it and is named it).
    public func claim(_ id: SessionID, replacing replaced: PeerNode?) throws(StorageError) -> SessionClaim {
        try lookUp(id, leavingLiveOwners: true, replacing: replaced?.name)
    }

    private func lookUp(
        _ id: SessionID, leavingLiveOwners: Bool, replacing replaced: String?
    ) throws(StorageError) -> SessionClaim {
        // What a session's value or records said when they did not decode (the transaction throws PostgresError).
        let undecodable = Locked<StoredFeatureError?>(nil)
        do {
            return try pool.withConnection { connection throws(PostgresError) -> SessionClaim in
                try connection.transaction { () throws(PostgresError) -> SessionClaim in
                    try take(
                        id, leavingLiveOwners: leavingLiveOwners, replacing: replaced, connection: connection,
                        undecodable: undecodable)
                }
            }
        } catch .server(state: "ViewHost", let message) {
            if let error = undecodable.withLock({ $0 }) { throw .undecodable(session: id, error) }
            throw .unusable(path: redactedURL, reason: message)
        } catch {
            throw .failed(reason: "reading session \(id): \(error)")
        }
    }

    /// Starts this node's lease under `internalAddress`, renewed by heartbeat until ``close()``.
    public func announce(_ internalAddress: String) {
        lease.start(address: internalAddress)
    }

    /// How many sessions this node took over from another node since it started (a metric).
    public var takeovers: Int { takenOver.load(ordering: .relaxed) }

    private func take(
        _ id: SessionID, leavingLiveOwners: Bool, replacing replaced: String?, connection: PostgresConnection,
        undecodable: Locked<StoredFeatureError?>
    ) throws(PostgresError) -> SessionClaim {
        // The owner's address only while its lease holds: a dead owner's sessions are taken over.
        let found = try connection.query(
            """
            SELECT token_digest, expired_at, owner,
                (SELECT address FROM nodes WHERE name = sessions.owner
                    AND expires_at > extract(epoch FROM clock_timestamp()))
            FROM sessions WHERE id = $1 FOR UPDATE
            """, [id.rawValue])
        guard let row = found.rows.first else { return .loaded(.none) }
        // The row is locked until commit: a node replacing the same owner at once waits here, then finds this one.
        if leavingLiveOwners, row[1] == nil, let owner = row[2], owner != node, owner != replaced, let address = row[3],
            !address.isEmpty
        {
            return .ownedElsewhere(PeerNode(name: owner, address: address))
        }
        guard let digest = row[0].flatMap(PostgresEncoded.bytes(hex:)) else {
            throw .server(state: "ViewHost", message: "session \(id) has no token digest")
        }
        let token = SessionToken(digest: digest)
        if row[1] != nil { return .loaded(.expired(token)) }
        let previousOwner = row[2]
        let taken = try connection.query(
            """
            UPDATE sessions SET owner = $2, epoch = epoch + 1 WHERE id = $1
            RETURNING epoch, created_at, last_access, snapshot, snapshot_number
            """, [id.rawValue, node])
        guard let lease = taken.rows.first, let epoch = lease[0].flatMap({ Int64($0) }),
            let snapshot = lease[3], let snapshotNumber = lease[4].flatMap({ Int($0) })
        else {
            throw .server(state: "ViewHost", message: "session \(id) has no snapshot")
        }
        var core: SessionCore
        do {
            core = try features.jsonDecoder().decode(SessionCore.self, from: Data(snapshot.utf8))
        } catch {
            if let error = error as? StoredFeatureError { undecodable.withLock { $0 = error } }
            throw .server(state: "ViewHost", message: "session \(id)'s snapshot cannot be read: \(error)")
        }
        let inputs = try connection.query(
            "SELECT number, input, record FROM journal WHERE session_id = $1 AND number > $2 ORDER BY number",
            [id.rawValue, String(snapshotNumber)])
        var number = snapshotNumber
        for input in inputs.rows {
            guard let next = input[0].flatMap({ Int($0) }), next == number + 1,
                let record = Self.record(input[1], input[2])
            else {
                throw .server(state: "ViewHost", message: "session \(id)'s journal has a gap at \(number + 1)")
            }
            do {
                try core.replay(JournalRecordFormat.decode(record))
            } catch {
                if case .undecodable(let error)? = error as? ReplayError { undecodable.withLock { $0 = error } }
                throw .server(
                    state: "ViewHost", message: "session \(id)'s journal record \(next) cannot be replayed: \(error)")
            }
            number = next
        }
        if let previousOwner, previousOwner != node {
            takenOver.add(1, ordering: .relaxed)
            // Delivered at commit, to every node listening.
            try connection.query(
                "SELECT pg_notify($1, $2)",
                [PostgresReleaseListener.channel, "\(id.rawValue) \(epoch) \(node)"])
        }
        leases.own(id, epoch: epoch)
        return .loaded(
            .found(
                StoredSession(
                    id: id, token: token, createdAt: Date(timeIntervalSince1970: Double(lease[1] ?? "") ?? 0),
                    lastAccess: Date(timeIntervalSince1970: Double(lease[2] ?? "") ?? 0), core: core,
                    journalNumber: number, copy: copies.wrappingAdd(1, ordering: .relaxed).newValue)))
    }

    /// Sessions whose next timer falls due before `instant` that this node owns (by name: give a node a stable
    /// `--node-id` and it takes its timed sessions back after a restart) or that nobody owns, soonest first.
    public func sessionsDue(before instant: Date, limit: Int) throws(StorageError) -> [SessionID] {
        do {
            return try pool.withConnection { connection throws(PostgresError) in
                try connection.query(
                    """
                    SELECT id FROM sessions WHERE next_due_at < $2::double precision AND expired_at IS NULL
                        AND (owner IS NULL OR owner = $1) ORDER BY next_due_at LIMIT $3::integer
                    """, [node, String(instant.timeIntervalSince1970), String(limit)])
            }.rows.compactMap { $0[0].map(SessionID.init) }
        } catch {
            throw .failed(reason: "listing sessions with timers: \(error)")
        }
    }

    /// Sessions with pending timers whose owner's lease has ended (or that nobody owns), soonest due first, at most
    /// 500 a call.
    public func sessionsWithOrphanedTimers() throws(StorageError) -> [SessionID] {
        do {
            return try pool.withConnection { connection throws(PostgresError) in
                try connection.query(
                    """
                    SELECT id FROM sessions WHERE next_due_at IS NOT NULL AND expired_at IS NULL AND (owner IS NULL
                        OR owner <> $1 AND NOT EXISTS (SELECT 1 FROM nodes WHERE name = sessions.owner
                            AND expires_at > extract(epoch FROM clock_timestamp())))
                    ORDER BY next_due_at LIMIT 500
                    """, [node])
            }.rows.compactMap { $0[0].map(SessionID.init) }
        } catch {
            throw .failed(reason: "listing sessions with orphaned timers: \(error)")
        }
    }

    /// How many sessions (not tombstones) the store holds.
    public func sessionCount() throws(StorageError) -> Int {
        do {
            let result = try pool.withConnection { connection throws(PostgresError) in
                try connection.query("SELECT count(*) FROM sessions WHERE expired_at IS NULL")
            }
            return Int(result.rows.first?.first.flatMap { $0 } ?? "0") ?? 0
        } catch {
            throw .failed(reason: "counting sessions: \(error)")
        }
    }

    // MARK: - Writes (through the writer)

    /// Leases session `session.id` to this node (epoch 1) and queues its row and first snapshot on the writer.
    public func create(
        _ session: StoredSession, completion: @escaping @Sendable (Bool) -> Void
    ) throws(UnstorableValue) {
        leases.own(session.id, epoch: 1)
        writer.enqueue(try .create(session, snapshot: Self.json), completion: completion)
    }

    /// Encodes `entry` here, on the caller's thread, fenced by the epoch its session is owned under now.
    @discardableResult
    public func append(
        _ entry: JournalEntry, completion: @escaping @Sendable (Bool) -> Void
    ) throws(UnstorableValue) -> Int {
        let write = try JournalWrite.append(entry, fence: leases.epoch(of: entry.session), snapshot: Self.json)
        writer.enqueue(write, completion: completion)
        return write.snapshotBytes
    }

    /// A session's value as the store keeps it: its JSON, as text.
    /// - Throws: ``UnstorableValue`` naming the feature and field its JSON cannot hold: never written as nothing.
    static func json(_ core: SessionCore) throws(UnstorableValue) -> [UInt8] {
        do {
            return try StoredJSON.bytes(of: core)
        } catch {
            throw core.unstorable(error)
        }
    }

    /// A journal row's record: in ``JournalRecordFormat`` (`record`), or as written before it (`input`, JSON text).
    static func record(_ input: String?, _ record: String?) -> [UInt8]? {
        if let record { return PostgresEncoded.bytes(bytea: record) }
        return input.map { Array($0.utf8) }
    }

    /// Gives up this node's lease on session `id` and queues its removal (a tombstone with `expiredAt`) on the writer.
    public func remove(_ id: SessionID, expiredAt: Date?, completion: @escaping @Sendable (Bool) -> Void) {
        leases.release(id)
        writer.enqueue(.remove(id, expiredAt: expiredAt), completion: completion)
    }

    /// Queues the last-use times on the writer, which batches them with the journal writes, a few hundred at a time
    /// (``JournalWriter/enqueueAccess(_:)``).
    public func recordAccess(_ times: [(SessionID, Date)]) {
        writer.enqueueAccess(times)
    }

    /// Expires, in one transaction, the sessions idle since before `cutoff` that are not live here (their invitations
    /// and the contact addresses they own go with them), and forgets old tombstones and the invitations expired
    /// before `forgetBefore`; a failure expires none (0) and the next sweep tries again.
    public func expire(idleBefore cutoff: Date, forgetBefore: Date, except live: @Sendable (SessionID) -> Bool) -> Int {
        do {
            return try pool.withConnection { connection throws(PostgresError) -> Int in
                try connection.transaction { () throws(PostgresError) -> Int in
                    // Sessions another node holds are kept fresh by its access flushes, so they are not idle here.
                    let idle = try connection.query(
                        "SELECT id FROM sessions WHERE expired_at IS NULL AND last_access < $1 FOR UPDATE SKIP LOCKED",
                        [String(cutoff.timeIntervalSince1970)]
                    ).rows.compactMap { $0[0] }.filter { !live(SessionID($0)) }
                    if !idle.isEmpty {
                        let ids = PostgresEncoded.array(idle)
                        try connection.query("DELETE FROM journal WHERE session_id = ANY($1::text[])", [ids])
                        try connection.query("DELETE FROM checkpoints WHERE session_id = ANY($1::text[])", [ids])
                        try connection.query("DELETE FROM invitations WHERE session_id = ANY($1::text[])", [ids])
                        try connection.query("DELETE FROM contacts WHERE session_id = ANY($1::text[])", [ids])
                        try connection.query(
                            "DELETE FROM join_invitations WHERE session_id = ANY($1::text[])", [ids])
                        try connection.query("DELETE FROM participants WHERE session_id = ANY($1::text[])", [ids])
                        try connection.query(
                            """
                            UPDATE sessions SET expired_at = last_access, snapshot = NULL, next_due_at = NULL
                            WHERE id = ANY($1::text[])
                            """, [ids])
                    }
                    try connection.query(
                        "DELETE FROM sessions WHERE expired_at IS NOT NULL AND expired_at < $1",
                        [String(forgetBefore.timeIntervalSince1970)])
                    // An invitation is remembered as gone (410) as long as a tombstone is, past its expiry.
                    try connection.query(
                        "DELETE FROM invitations WHERE expires_at < $1", [String(forgetBefore.timeIntervalSince1970)])
                    try connection.query(
                        "DELETE FROM join_invitations WHERE expires_at < $1",
                        [String(forgetBefore.timeIntervalSince1970)])
                    return idle.count
                }
            }
        } catch {
            return 0
        }
    }

    /// The writer's transactions and the writes they carried since start.
    public var commitCounts: (commits: Int, writes: Int) {
        writer.counts.withLock { ($0.batches, $0.writes) }
    }

    /// The writer's health: `failing` after a write failed, until one commits again.
    public var health: StorageHealth { writer.monitor.health }

    /// Calls `handler` whenever the writer's health changes.
    public func onHealthChange(_ handler: @escaping @Sendable (StorageHealth) -> Void) {
        writer.monitor.onChange(handler)
    }

    /// Calls `handler` when another node takes over sessions of this node (the database notifies this node).
    public func onOwnershipLoss(_ handler: @escaping @Sendable (OwnershipLoss) -> Void) {
        listener.onLoss(handler)
    }

    /// Writes what is queued, then stops listening for takeovers and gives up this node's lease.
    public func close() {
        writer.drainAndStop()
        listener.stop()
        lease.stop()
    }

    /// `error`'s text with any password in it hidden, should libpq repeat the URL or a part of it.
    static func redact(_ error: any Error) -> String {
        PasswordRedaction.redacted("\(error)")
    }
}
