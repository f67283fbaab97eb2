import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewModelCore

struct SessionStoreTests {
    let scheduler = ManualScheduler()

    func makeSession() -> Session {
        Session(
            id: .random(), token: .random(), environment: SessionEnvironment(scheduler: scheduler),
            features: [InitialFeature(Counter.key, state: Counter.State())])
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
        guard case .found(let found) = store.lookup(session.id, token: session.token.rawValue, now: scheduler.now) else {
            Issue.record("not found")
            return
        }
        #expect(found === session)
        guard case .notFound = store.lookup(session.id, token: other.token.rawValue, now: scheduler.now) else {
            Issue.record("another session's token must not find it")
            return
        }
        guard case .notFound = store.lookup(SessionID("unknown"), token: session.token.rawValue, now: scheduler.now) else {
            Issue.record("unknown id")
            return
        }
    }

    @Test func idleSessionExpiresAndOnlyItsOwnTokenLearnsThat() throws {
        let store = SessionStore(configuration: .init(idleTTL: .seconds(60)))
        let session = try #require(store.insert(makeSession))
        scheduler.advance(by: .seconds(59))
        guard case .found = store.lookup(session.id, token: session.token.rawValue, now: scheduler.now) else {
            Issue.record("still alive at 59 s")
            return
        }
        scheduler.advance(by: .seconds(60))  // idle again for 60 s since the lookup touched it
        guard case .expired = store.lookup(session.id, token: session.token.rawValue, now: scheduler.now) else {
            Issue.record("expired")
            return
        }
        #expect(session.isClosed)
        #expect(store.count == 0)
        guard case .expired = store.lookup(session.id, token: session.token.rawValue, now: scheduler.now) else {
            Issue.record("a tombstone answers expired for the own token")
            return
        }
        guard case .notFound = store.lookup(session.id, token: SessionToken.random().rawValue, now: scheduler.now) else {
            Issue.record("a foreign token learns nothing")
            return
        }
    }

    @Test func sweepExpiresIdleSessionsAndFreesThem() throws {
        let store = SessionStore(configuration: .init(idleTTL: .seconds(10)))
        let sessions = (0..<50).compactMap { _ in store.insert(makeSession) }
        scheduler.advance(by: .seconds(10))
        #expect(store.expireIdle(now: scheduler.now) == 50)
        #expect(store.count == 0)
        #expect(sessions.allSatisfy { $0.isClosed })
    }

    @Test func deletedSessionIsNotFoundAfterwards() throws {
        let store = SessionStore()
        let session = try #require(store.insert(makeSession))
        #expect(!store.remove(session.id, token: SessionToken.random().rawValue))
        #expect(store.remove(session.id, token: session.token.rawValue))
        guard case .notFound = store.lookup(session.id, token: session.token.rawValue, now: scheduler.now) else {
            Issue.record("deleted sessions are not found")
            return
        }
    }
}
