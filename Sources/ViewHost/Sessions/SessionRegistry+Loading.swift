import Foundation
import HTTPCore
import Logging
import Synchronization
import ViewHostLocking
import ViewModelCore

/// Loading sessions from the durable store: on a storage thread, never on an event loop; again for a request whose
/// copy was dropped before anything of it was applied; and those whose timers fell due.
extension SessionRegistry {
    /// Loads `load`'s session on a storage thread (its read blocks: a network round trip with PostgreSQL, never on
    /// an event loop).
    /// - Returns: `.here` with the copy the app keeps, or `.elsewhere` when another live node owns the session.
    /// - Throws: ``AppError``: the session is unknown, expired or lost, or cannot be read.
    func load(_ load: SessionLoad) async throws -> SessionResolution {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SessionResolution, any Error>) in
            Self.loading.async {
                do {
                    continuation.resume(
                        returning: try self.load(
                            load.id, token: load.token, now: load.now, mode: load.mode,
                            authorized: load.authorized, prepare: load.prepare))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// For a request that held `session` when that copy was dropped (the store could not keep one of its inputs, or
    /// another node took it over) before anything of the request was applied: forgets the copy, and says how to
    /// load the durable value, so the request is answered from that as if it had come a moment later.
    /// - Parameters:
    ///   - session: The dropped copy.
    ///   - request: The request that held it (its token proves the holder).
    ///   - prepare: Runs on the loaded copy before any other request can reach it (a reader reads the durable value
    ///     there, whatever writes come next).
    /// - Returns: How to load the session's durable value.
    func reloading(
        _ session: Session, for request: HTTPRequest, prepare: (@Sendable (Session) -> Void)? = nil
    ) -> SessionLoad {
        store.drop(id: session.id)
        return SessionLoad(
            id: session.id, token: Self.token(of: request, session: session.id.rawValue) ?? "", now: scheduler.now,
            mode: loadMode(for: request),
            authorized: true,
            prepare: prepare)
    }

    /// Where sessions are loaded from the durable store (reads run concurrently; each blocks its thread).
    static let loading = DispatchQueue(label: "viewhost.sessions.load", attributes: .concurrent)

    private func load(
        _ id: SessionID, token: String, now: Date, mode: LoadMode, authorized: Bool,
        prepare: (@Sendable (Session) -> Void)? = nil
    ) throws -> SessionResolution {
        try loadGate.run(id) {
            // Another request loaded it while this one waited: its copy, not a second take-over (``SessionLoadGate``).
            if prepare == nil, case .found(let live) = store.lookup(id, token: token, now: now) { return .here(live) }
            return try loadOnce(id, token: token, now: now, mode: mode, authorized: authorized, prepare: prepare)
        }
    }

    private func loadOnce(
        _ id: SessionID, token: String, now: Date, mode: LoadMode, authorized: Bool,
        prepare: (@Sendable (Session) -> Void)?
    ) throws -> SessionResolution {
        guard let storage, id.rawValue.utf8.count <= 64 else { throw AppError.sessionNotFound }
        let lookup: StoredLookup
        do {
            if let shared, mode != .takeOver {
                switch try claim(id, from: shared, replacing: mode.replaced, hop: mode == .hop) {
                case .loaded(let found):
                    lookup = found
                case .ownedElsewhere(let owner):
                    // A hop is never forwarded again: the node that sent it looks the owner up itself.
                    guard mode != .hop, let cluster else { throw AppError.misdirected(owner: owner.name) }
                    cluster.routes.remember(id, owner: owner)
                    return .elsewhere(elsewhere(id, owner: owner, token: token, now: now, authorized: authorized))
                }
            } else {
                lookup = try storage.load(id)
            }
        } catch StorageError.undecodable(_, let error) {
            // Data this build does not read: no retry helps (500), and the client and the log say where.
            logger.error(
                "a stored session does not decode with this build",
                metadata: [
                    "session-id": "\(id)", "feature": "\(error.feature)", "field": "\(error.field)",
                    "stored-version": "\(error.storedVersion)", "schema-version": "\(error.currentVersion)",
                    "reason": "\(error.reason)",
                ])
            throw AppError.sessionUndecodable(error)
        } catch let error as StorageError {
            // The client is told 503 and nothing more; the operator is told why, naming the file.
            logger.error("a stored session cannot be loaded", metadata: ["session-id": "\(id)", "reason": "\(error)"])
            throw AppError.sessionUnreadable
        }
        switch lookup {
        case .none:
            throw AppError.sessionNotFound
        case .expired(let stored):
            guard stored.matches(token) else { throw AppError.sessionNotFound }
            store.rememberExpired(id, token: stored, at: now)
            throw AppError.sessionExpired
        case .lost(let stored):
            // Not remembered as expired (that would tell its holder it was idle): each request reads the store's
            // tombstone again, one row, as for any id not in memory.
            guard stored.matches(token) else { throw AppError.sessionNotFound }
            throw AppError.sessionLost
        case .found(let stored):
            guard authorized || stored.token.matches(token) else { throw AppError.sessionNotFound }
            guard stored.lastAccess.addingTimeInterval(settings.store.idleTTL.seconds) > now else {
                storage.remove(id, expiredAt: now) { _ in }
                store.rememberExpired(id, token: stored.token, at: now)
                throw AppError.sessionExpired
            }
            return .here(adopt(stored, prepare: prepare))
        }
    }

    /// How a request's session is loaded: taken over, unless this node forwards and another live node owns it.
    enum LoadMode: Sendable, Equatable {
        /// Take the session over whoever owns it (a node of one).
        case takeOver
        /// Take it over unless another live node owns it; then forward the request there.
        case claim
        /// As `claim`, but take it over from this owner too: it refused a connection (its process is gone, though
        /// its lease has not run out yet), or it handed the session to this node.
        case replacing(PeerNode)
        /// A hop from another node: take it over unless another live node owns it; then answer 421.
        case hop

        /// The owner this load takes the session over from though its lease holds.
        var replaced: PeerNode? {
            if case .replacing(let owner) = self { owner } else { nil }
        }
    }

    /// Claims session `id`, taking it over from `replaced` too (it handed the session here, or refused a
    /// connection just now), conditionally on that owner, in the store's transaction: of two nodes handed the same
    /// session at once, one takes it and the other is named that one (and forwards there) instead of taking it over
    /// again, which would fence the first copy and refuse its pending write (503).
    ///
    /// Another owner whose lease holds is never taken over here, even one whose address refused a connection a
    /// while ago: a node restarted under the same name and address (a rolling restart) renews that lease, and is
    /// alive. The request is forwarded to it instead, and only a connection it refuses now makes it `replaced`.
    func claim(
        _ id: SessionID, from shared: any SharedSessionStorage, replacing replaced: PeerNode?, hop: Bool
    ) throws(StorageError) -> SessionClaim {
        try shared.claim(id, replacing: hop ? nil : replaced)
    }

    /// How `request`'s session is loaded here.
    func loadMode(for request: HTTPRequest) -> LoadMode {
        guard let cluster else { return .takeOver }
        return cluster.isHop(request) ? .hop : .claim
    }

    /// The request goes to `owner`: its answer is relayed; if `owner` is gone, the session is taken over here, and
    /// if it no longer owns the session, its owner is looked up again.
    func elsewhere(_ id: SessionID, owner: PeerNode, token: String, now: Date, authorized: Bool = false)
        -> SessionElsewhere
    {
        SessionElsewhere(
            id: id, owner: owner,
            takeOver: SessionLoad(id: id, token: token, now: now, mode: .replacing(owner), authorized: authorized),
            lookUpAgain: SessionLoad(id: id, token: token, now: now, mode: .claim, authorized: authorized))
    }

    /// A live session from its stored value: its timers start (those that fell due while the server was down
    /// fire at once, in order) and it asks again for what it was waiting for.
    /// Two requests may load the same session at once: only the copy the store keeps starts.
    /// - Parameters:
    ///   - stored: The session as the store holds it.
    ///   - prepare: Runs on the loaded copy before it is adopted (and before it may be dropped for a copy another
    ///     request loaded first).
    /// - Returns: The session the store keeps: this copy (started), or the one another request adopted first.
    func adopt(_ stored: StoredSession, prepare: ((Session) -> Void)? = nil) -> Session {
        let restored = Session(
            id: stored.id, token: stored.token, createdAt: stored.createdAt, lastAccess: stored.lastAccess,
            core: stored.core, journalNumber: stored.journalNumber, copy: stored.copy, isStored: true,
            environment: environment, startsNow: false)
        prepare?(restored)
        cluster?.routes.forget(stored.id)
        // Another node may have changed its participants while it was not here.
        participants.forget(stored.id)
        let kept = store.adopt(restored)
        if kept === restored { restored.start() }
        return kept
    }

    /// How often the stored sessions whose timers fell due are looked for: a timer of a session that left memory
    /// fires at most this late. (Loaded ahead of time, a session could leave memory again before its timer fell
    /// due; loaded once it is due, it stays until the timer fired, ``Session/closeIfIdle()``.)
    static let dueLoadInterval = Duration.milliseconds(250)

    /// Every ``dueLoadInterval``, loads the stored sessions whose next timer fell due and that are not in memory
    /// (at start, or after they left memory to make room), so their timers fire without waiting for a request; in
    /// a cluster, every fourth time (each second), also claims those whose owner died (its lease ended). Several
    /// live nodes may look at once: each orphaned session goes to one.
    func startLoadingDueSessions() {
        Task.detached { [weak self] in
            var round = 0
            while true {
                guard let self, !self.backgroundWork.isClosed else { return }
                let claiming = self.shared != nil && round % 4 == 0
                round += 1
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    Self.loading.async {
                        self.backgroundWork.run {
                            self.loadSessionsDue()
                            if claiming { self.claimOrphanedTimers() }
                        }
                        done.resume()
                    }
                }
                try? await Task.sleep(for: Self.dueLoadInterval)
            }
        }
    }

    private func claimOrphanedTimers() {
        guard let shared, let ids = try? shared.sessionsWithOrphanedTimers() else { return }
        let now = scheduler.now
        for id in ids where !store.isLive(id) {
            guard case .loaded(.found(let stored))? = try? shared.claim(id) else { continue }
            // One idle past its time expires with the next sweep, not here.
            guard stored.lastAccess.addingTimeInterval(settings.store.idleTTL.seconds) > now else { continue }
            _ = adopt(stored)
        }
    }

    /// Loads the stored sessions whose next timer fell due and that are not in memory, a bounded batch at a time,
    /// soonest first, so those fire without waiting for a request.
    func loadSessionsDue() {
        guard let storage, let ids = try? storage.sessionsDue(before: scheduler.now, limit: 500) else { return }
        for id in ids where !store.isLive(id) {
            guard case .found(let stored)? = try? loadStoredForTimers(id, from: storage) else { continue }
            _ = adopt(stored)
            dueLoads.add(1, ordering: .relaxed)
        }
    }

    /// Session `id` as stored, claimed for this node in a cluster (left alone when another live node owns it).
    private func loadStoredForTimers(_ id: SessionID, from storage: any SessionStorage) throws(StorageError)
        -> StoredLookup?
    {
        guard let shared else { return try storage.load(id) }
        guard case .loaded(let lookup) = try shared.claim(id) else { return nil }
        return lookup
    }
}
