import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewHostLocking
import ViewModelCore

struct SessionStoreTests {
    let scheduler = ManualScheduler()

    /// Each session's secret, by id (the session keeps only its digest).
    final class Secrets: Sendable {
        let byID = Locked<[SessionID: String]>([:])
    }

    let secrets = Secrets()

    func makeSession() -> Session {
        let secret = SessionSecret.random()
        let session = Session(
            id: .random(), token: SessionToken(secret: secret), environment: SessionEnvironment(scheduler: scheduler),
            features: [InitialFeature(Counter.key, state: Counter.State())])
        secrets.byID.withLock { $0[session.id] = secret.rawValue }
        return session
    }

    func secret(of session: Session) -> String {
        secrets.byID.withLock { $0[session.id]! }
    }

    @Test func storeRefusesSessionsPastItsCap() {
        let store = SessionStore(configuration: .init(maxSessions: 2))
        #expect(store.insert(makeSession) != nil)
        #expect(store.insert(makeSession) != nil)
        #expect(store.insert(makeSession) == nil)
        #expect(store.count == 2)
    }

    @Test func lookupNeedsTheSessionsOwnToken() throws {
        let store = SessionStore()
        let session = try #require(store.insert(makeSession))
        let other = try #require(store.insert(makeSession))
        guard case .found(let found) = store.lookup(session.id, token: secret(of: session), now: scheduler.now) else {
            Issue.record("not found")
            return
        }
        #expect(found === session)
        guard case .notFound = store.lookup(session.id, token: secret(of: other), now: scheduler.now) else {
            Issue.record("another session's token must not find it")
            return
        }
        guard case .notLoaded = store.lookup(SessionID("unknown"), token: secret(of: session), now: scheduler.now) else {
            Issue.record("unknown id")
            return
        }
    }

    @Test func idleSessionExpiresAndOnlyItsOwnTokenLearnsThat() throws {
        let store = SessionStore(configuration: .init(idleTTL: .seconds(60)))
        let session = try #require(store.insert(makeSession))
        scheduler.advance(by: .seconds(59))
        guard case .found = store.lookup(session.id, token: secret(of: session), now: scheduler.now) else {
            Issue.record("still alive at 59 s")
            return
        }
        scheduler.advance(by: .seconds(60))  // idle again for 60 s since the lookup touched it
        guard case .expired = store.lookup(session.id, token: secret(of: session), now: scheduler.now) else {
            Issue.record("expired")
            return
        }
        #expect(session.isClosed)
        #expect(store.count == 0)
        guard case .expired = store.lookup(session.id, token: secret(of: session), now: scheduler.now) else {
            Issue.record("a tombstone answers expired for the own token")
            return
        }
        guard case .notFound = store.lookup(session.id, token: SessionSecret.random().rawValue, now: scheduler.now) else {
            Issue.record("a foreign token learns nothing")
            return
        }
    }

    @Test func sweepExpiresIdleSessionsAndFreesThem() throws {
        let store = SessionStore(configuration: .init(idleTTL: .seconds(10)))
        let sessions = (0..<50).compactMap { _ in store.insert(makeSession) }
        scheduler.advance(by: .seconds(10))
        #expect(store.expireIdle(now: scheduler.now).count == 50)
        #expect(store.count == 0)
        #expect(sessions.allSatisfy { $0.isClosed })
    }

    @Test func deletedSessionIsNotFoundAfterwards() throws {
        let store = SessionStore()
        let session = try #require(store.insert(makeSession))
        #expect(store.remove(session))
        #expect(!store.remove(session))
        guard case .notLoaded = store.lookup(session.id, token: secret(of: session), now: scheduler.now) else {
            Issue.record("deleted sessions are not found")
            return
        }
    }

    @Test func aSessionHeldByAStreamDoesNotExpire() throws {
        let store = SessionStore(configuration: .init(idleTTL: .seconds(10)))
        let session = try #require(store.insert(makeSession))
        session.hold()
        scheduler.advance(by: .seconds(60))
        #expect(store.expireIdle(now: scheduler.now).isEmpty)
        guard case .found = store.lookup(session.id, token: secret(of: session), now: scheduler.now) else {
            Issue.record("a held session stays")
            return
        }
        session.release()
        scheduler.advance(by: .seconds(10))
        #expect(store.expireIdle(now: scheduler.now).count == 1)
    }

    @Test func theSessionKeepsOnlyTheDigestOfItsSecret() {
        let secret = SessionSecret.random()
        let token = SessionToken(secret: secret)
        #expect(token.digest.count == 32)
        #expect(!token.digest.elementsEqual(secret.rawValue.utf8))
        #expect(token.matches(secret.rawValue))
    }
}
