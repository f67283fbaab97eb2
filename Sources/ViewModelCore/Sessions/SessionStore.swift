import Foundation
import Synchronization
import ViewHostLocking

/// All live sessions of the process, sharded by id so lookups on different sessions rarely contend.
///
/// It bounds the sessions in memory (with a durable store the least recently used idle ones leave memory, see
/// ``Configuration/evictsIdleSessions``; without one, creation is refused at the cap), the idle TTL (on every lookup and in ``expireIdle(now:)``; a session held
/// open by an event stream or a long poll does not expire), and
/// remembers expired sessions for a while, so their own token gets `expired` (410) rather than `notFound`.
/// Deleted sessions leave nothing behind: they are simply not found.
public final class SessionStore: Sendable {
    /// Limits and lifetimes.
    public struct Configuration: Sendable, Hashable {
        /// Idle time after which a session expires.
        public var idleTTL: Duration
        /// Live sessions past which creation is refused.
        public var maxSessions: Int
        /// How long an expired session's id is remembered.
        public var tombstoneTTL: Duration
        /// How many expired ids are remembered at most.
        public var maxTombstones: Int
        /// Whether, at the cap, idle sessions leave memory to make room (a durable store keeps them: memory is a
        /// cache); else creation is refused.
        public var evictsIdleSessions: Bool

        /// Creates a configuration.
        public init(
            idleTTL: Duration = .seconds(1800), maxSessions: Int = 200_000, tombstoneTTL: Duration = .seconds(86_400),
            maxTombstones: Int = 100_000, evictsIdleSessions: Bool = false
        ) {
            self.idleTTL = idleTTL
            self.maxSessions = maxSessions
            self.tombstoneTTL = tombstoneTTL
            self.maxTombstones = maxTombstones
            self.evictsIdleSessions = evictsIdleSessions
        }
    }

    /// The result of looking a session up with a token.
    public enum Lookup: Sendable {
        case found(Session)
        /// The session expired; the token was its own.
        case expired
        /// The session is here, but the token is another session's: never say so (answer as not found).
        case notFound
        /// Not in memory (a durable store may hold it).
        case notLoaded
    }

    private struct Tombstone {
        let token: SessionToken
        let expiredAt: Date
    }

    private struct Shard {
        var sessions: [SessionID: Session] = [:]
        var tombstones: [SessionID: Tombstone] = [:]
        var tombstoneOrder: [SessionID] = []
    }

    /// Each shard has a lock of its own.
    private final class ShardBox: Sendable {
        let state = Locked(Shard())
    }

    private static let shardCount = 16
    /// The limits and lifetimes the store was made with.
    public let configuration: Configuration
    private let shards: [ShardBox]
    private let liveCount = Atomic<Int>(0)

    /// Creates an empty store.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.shards = (0..<Self.shardCount).map { _ in ShardBox() }
    }

    /// Live sessions.
    public var count: Int { liveCount.load(ordering: .relaxed) }

    /// Adds a session made by `make`, unless the store is full (at the cap, idle sessions leave memory first when
    /// ``Configuration/evictsIdleSessions`` says so).
    /// - Returns: The session, or nil when the cap is reached and nothing could leave (the caller answers 503).
    public func insert(_ make: () -> Session) -> Session? {
        guard claimPlace() || (configuration.evictsIdleSessions && evictLeastRecentlyUsed() > 0 && claimPlace()) else {
            return nil
        }
        let session = make()
        shard(for: session.id).state.withLock { $0.sessions[session.id] = session }
        return session
    }

    /// Finds session `id` for a request carrying `token`, and marks it used.
    /// - Parameters:
    ///   - id: The id from the URL.
    ///   - token: The bearer token or cookie value.
    ///   - now: The current time (for the TTL).
    /// - Returns: The session, or that it expired, is not here (a wrong token reads the same), or is not loaded.
    public func lookup(_ id: SessionID, token: String, now: Date) -> Lookup {
        let ttl = configuration.idleTTL
        let (result, expired, dropped) = shard(for: id).state.withLock { shard -> (Lookup, Session?, Bool) in
            if let session = shard.sessions[id] {
                guard session.token.matches(token) else { return (.notFound, nil, false) }
                if session.isClosed {
                    // A copy that closed itself (a storage failure) and is about to be dropped: the store keeps
                    // the session, so it loads again rather than being answered as gone.
                    shard.sessions[id] = nil
                    return (.notLoaded, nil, true)
                }
                if !session.isHeld, session.lastAccess.addingTimeInterval(ttl.seconds) <= now {
                    shard.sessions[id] = nil
                    remember(id: id, token: session.token, at: now, in: &shard)
                    return (.expired, session, false)
                }
                session.touch(at: now)
                return (.found(session), nil, false)
            }
            if let tombstone = shard.tombstones[id] {
                return (tombstone.token.matches(token) ? .expired : .notFound, nil, false)
            }
            return (.notLoaded, nil, false)
        }
        if dropped { liveCount.wrappingSubtract(1, ordering: .relaxed) }
        if let expired {
            liveCount.wrappingSubtract(1, ordering: .relaxed)
            expired.close(.expired)
        }
        return result
    }

    /// Deletes `session` (found by a lookup with its token), and ends it.
    /// - Returns: Whether it was still here.
    @discardableResult
    public func remove(_ session: Session) -> Bool {
        guard drop(session) else { return false }
        session.close(.deleted)
        return true
    }

    /// Forgets `session` without ending it or remembering it as expired (it closed itself after a storage failure;
    /// the next lookup loads its durable value).
    @discardableResult
    public func drop(_ session: Session) -> Bool {
        let removed = shard(for: session.id).state.withLock { shard -> Bool in
            guard shard.sessions[session.id] === session else { return false }
            shard.sessions[session.id] = nil
            return true
        }
        if removed { liveCount.wrappingSubtract(1, ordering: .relaxed) }
        return removed
    }

    /// Forgets the session with `id`, as ``drop(_:)``, if it has closed: a copy loaded again since (after a
    /// takeover by another node, or a store outage) is open and stays, with its streams.
    public func drop(id: SessionID) {
        let removed = shard(for: id).state.withLock { shard -> Bool in
            guard let session = shard.sessions[id], session.isClosed else { return false }
            shard.sessions[id] = nil
            return true
        }
        if removed { liveCount.wrappingSubtract(1, ordering: .relaxed) }
    }

    /// Adds a session loaded from a durable store, unless one with its id is here already (two requests loaded it
    /// at once): then that one is kept and returned.
    public func adopt(_ session: Session) -> Session {
        let (kept, added) = shard(for: session.id).state.withLock { shard -> (Session, Bool) in
            if let existing = shard.sessions[session.id] { return (existing, false) }
            shard.sessions[session.id] = session
            shard.tombstones[session.id] = nil
            return (session, true)
        }
        if added { liveCount.wrappingAdd(1, ordering: .relaxed) } else { session.close(.shutdown) }
        // A loaded session is always taken (its request is waiting); past the cap, others make room.
        if added, configuration.evictsIdleSessions, count > configuration.maxSessions { evictLeastRecentlyUsed() }
        return kept
    }

    /// Takes a place under the cap; false when there is none.
    private func claimPlace() -> Bool {
        guard liveCount.wrappingAdd(1, ordering: .relaxed).newValue <= configuration.maxSessions else {
            liveCount.wrappingSubtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Makes room: the least recently used sessions that can leave memory (``Session/closeIfIdle()``) leave, a
    /// sixty-fourth of the cap at a time, so one look over all sessions serves many creations.
    /// - Returns: How many left.
    @discardableResult
    private func evictLeastRecentlyUsed() -> Int {
        var candidates: [Session] = []
        forEachSession { if !$0.isHeld && !$0.isClosed { candidates.append($0) } }
        let wanted = max(1, configuration.maxSessions / 64) + max(0, count - configuration.maxSessions)
        let oldest =
            candidates.count <= wanted
            ? candidates : Array(candidates.sorted { $0.lastAccess < $1.lastAccess }.prefix(wanted))
        var evicted = 0
        for session in oldest where session.closeIfIdle() && drop(session) { evicted += 1 }
        return evicted
    }

    /// Session `id`, if it is in memory and open: for the host's own work on it (a delivery from another session),
    /// which needs no token and counts as no use.
    public func session(_ id: SessionID) -> Session? {
        shard(for: id).state.withLock { $0.sessions[id] }.flatMap { $0.isClosed ? nil : $0 }
    }

    /// Whether session `id` is in memory.
    public func isLive(_ id: SessionID) -> Bool {
        shard(for: id).state.withLock { $0.sessions[id] != nil }
    }

    /// Calls `body` with every session in memory (one shard locked at a time).
    public func forEachSession(_ body: (Session) -> Void) {
        for shard in shards {
            let sessions = shard.state.withLock { Array($0.sessions.values) }
            for session in sessions { body(session) }
        }
    }

    /// Remembers that `id` expired (its holder gets 410 rather than 404), as a lookup that expires it would.
    public func rememberExpired(_ id: SessionID, token: SessionToken, at date: Date) {
        shard(for: id).state.withLock { shard in remember(id: id, token: token, at: date, in: &shard) }
    }

    /// Expires every session idle past the TTL (not held open by a stream or long poll) and forgets old tombstones.
    /// - Returns: The sessions that expired (ended already).
    @discardableResult
    public func expireIdle(now: Date) -> [Session] {
        let ttl = configuration.idleTTL.seconds
        let tombstoneTTL = configuration.tombstoneTTL.seconds
        var expiredSessions: [Session] = []
        for shard in shards {
            let expired = shard.state.withLock { shard -> [Session] in
                var expired: [Session] = []
                for (id, session) in shard.sessions
                where !session.isHeld && session.lastAccess.addingTimeInterval(ttl) <= now {
                    shard.sessions[id] = nil
                    remember(id: id, token: session.token, at: now, in: &shard)
                    expired.append(session)
                }
                while let oldest = shard.tombstoneOrder.first,
                    let tombstone = shard.tombstones[oldest],
                    tombstone.expiredAt.addingTimeInterval(tombstoneTTL) <= now
                {
                    shard.tombstones[oldest] = nil
                    shard.tombstoneOrder.removeFirst()
                }
                return expired
            }
            liveCount.wrappingSubtract(expired.count, ordering: .relaxed)
            for session in expired { session.close(.expired) }
            expiredSessions += expired
        }
        return expiredSessions
    }

    /// Closes and forgets every session (shutdown).
    public func removeAll() {
        for shard in shards {
            let sessions = shard.state.withLock { shard -> [Session] in
                defer { shard.sessions.removeAll() }
                return Array(shard.sessions.values)
            }
            liveCount.wrappingSubtract(sessions.count, ordering: .relaxed)
            for session in sessions { session.close(.shutdown) }
        }
    }

    private func remember(id: SessionID, token: SessionToken, at date: Date, in shard: inout Shard) {
        shard.tombstones[id] = Tombstone(token: token, expiredAt: date)
        shard.tombstoneOrder.append(id)
        let perShard = max(1, configuration.maxTombstones / Self.shardCount)
        while shard.tombstoneOrder.count > perShard {
            shard.tombstones[shard.tombstoneOrder.removeFirst()] = nil
        }
    }

    private func shard(for id: SessionID) -> ShardBox {
        shards[Int(UInt(bitPattern: id.rawValue.hashValue) % UInt(Self.shardCount))]
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    public var seconds: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
