import Foundation
import HTTPCore
import Logging
import ViewHostLocking
import ViewModelCore

/// Loading sessions from the durable store: on a storage thread, never on an event loop; again for a request whose
/// copy was dropped before anything of it was applied; and at start, those whose timers are due.
extension SessionRegistry {
    /// For a request that held `session` when that copy was dropped (the store could not keep one of its inputs,
    /// or another node took it over) before anything of the request was applied: forgets the copy and loads the
    /// durable value, so the request is answered from that as if it had come a moment later.
    func reloadNeeded(for request: HTTPRequest, session: Session) -> SessionLoadNeeded {
        store.drop(id: session.id)
        let id = session.id
        let token = Self.token(of: request) ?? ""
        let now = scheduler.now
        return SessionLoadNeeded { [self] in try await loadOffLoop(id, token: token, now: now) }
    }

    /// For a reader whose copy of `session` was dropped while it waited (the store could not keep a newer input):
    /// loads the durable value again and makes what the reader wants from it with `read`, before any other
    /// request can reach that copy, so it is the durable value's whatever writes come next.
    /// - Returns: What `read` made, and the copy the app keeps now (to wait on for later changes).
    func reread<Value: Sendable>(
        _ session: Session, for request: HTTPRequest, _ read: @escaping @Sendable (Session) -> Value
    ) async throws -> (value: Value, live: Session) {
        store.drop(id: session.id)
        let made = Locked<Value?>(nil)
        let live = try await loadOffLoop(session.id, token: Self.token(of: request) ?? "", now: scheduler.now) {
            loaded in made.withLock { $0 = read(loaded) }
        }
        // `read` ran on the loaded copy before it was adopted or dropped (a load that returns always adopts).
        guard let value = made.withLock({ $0 }) else { throw AppError.sessionUnavailable }
        return (value, live)
    }

    /// Loads session `id` for `token` on a storage thread (its read blocks: a network round trip with PostgreSQL,
    /// never on an event loop).
    func loadOffLoop(
        _ id: SessionID, token: String, now: Date, prepare: (@Sendable (Session) -> Void)? = nil
    ) async throws -> Session {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Session, any Error>) in
            Self.loading.async {
                do {
                    continuation.resume(returning: try self.load(id, token: token, now: now, prepare: prepare))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Where sessions are loaded from the durable store (reads run concurrently; each blocks its thread).
    static let loading = DispatchQueue(label: "viewhost.sessions.load", attributes: .concurrent)

    private func load(
        _ id: SessionID, token: String, now: Date, prepare: (@Sendable (Session) -> Void)? = nil
    ) throws(AppError) -> Session {
        guard let storage, id.rawValue.utf8.count <= 64 else { throw .sessionNotFound }
        let lookup: StoredLookup
        do {
            lookup = try storage.load(id)
        } catch {
            // The client is told 503 and nothing more; the operator is told why, naming the file.
            logger.error("a stored session cannot be loaded", metadata: ["session-id": "\(id)", "reason": "\(error)"])
            throw .sessionUnreadable
        }
        switch lookup {
        case .none:
            throw .sessionNotFound
        case .expired(let stored):
            guard stored.matches(token) else { throw .sessionNotFound }
            store.rememberExpired(id, token: stored, at: now)
            throw .sessionExpired
        case .found(let stored):
            guard stored.token.matches(token) else { throw .sessionNotFound }
            guard stored.lastAccess.addingTimeInterval(settings.store.idleTTL.seconds) > now else {
                storage.remove(id, expiredAt: now) { _ in }
                store.rememberExpired(id, token: stored.token, at: now)
                throw .sessionExpired
            }
            return adopt(stored, prepare: prepare)
        }
    }

    /// A live session from its stored value: its timers start (those that fell due while the server was down
    /// fire at once, in order) and it asks again for what it was waiting for.
    /// Two requests may load the same session at once: only the copy the store keeps starts.
    /// - Parameter prepare: Runs on the loaded copy before it is adopted (and before it may be dropped for a copy
    ///   another request loaded first).
    private func adopt(_ stored: StoredSession, prepare: ((Session) -> Void)? = nil) -> Session {
        let restored = Session(
            id: stored.id, token: stored.token, createdAt: stored.createdAt, lastAccess: stored.lastAccess,
            core: stored.core, journalNumber: stored.journalNumber, copy: stored.copy, isStored: true,
            environment: environment, startsNow: false)
        prepare?(restored)
        let kept = store.adopt(restored)
        if kept === restored { restored.start() }
        return kept
    }

    /// Loads the stored sessions that have pending timers, so those fire without waiting for a request (at start).
    func restoreSessionsWithTimers() {
        guard let storage, let ids = try? storage.sessionsWithTimers() else { return }
        for id in ids where !store.isLive(id) {
            guard case .found(let stored)? = try? storage.load(id) else { continue }
            _ = adopt(stored)
        }
    }
}
