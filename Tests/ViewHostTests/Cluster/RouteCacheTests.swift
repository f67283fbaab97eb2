@testable import ViewHost
import HTTPCore
import Testing
import ViewModelCore

/// Where sessions live, as a node remembers it: routes come and go, a node that could not be reached is passed over
/// for a while (so its sessions are looked up again), and the cache stays within its bound.
struct RouteCacheTests {
    let a = PeerNode(name: "a", address: "127.0.0.1:1")
    let b = PeerNode(name: "b", address: "127.0.0.1:2")

    @Test func aRouteIsKeptUntilForgotten() {
        let cache = RouteCache()
        let id = SessionID("s1")
        #expect(cache.owner(of: id) == nil)
        cache.remember(id, owner: a)
        #expect(cache.owner(of: id) == a)
        cache.remember(id, owner: b)
        #expect(cache.owner(of: id) == b)
        cache.forget(id)
        #expect(cache.owner(of: id) == nil)
    }

    @Test func routesToANodeThatCouldNotBeReachedArePassedOverForAWhile() {
        let cache = RouteCache(unreachableFor: .seconds(600))
        cache.remember(SessionID("s1"), owner: a)
        cache.remember(SessionID("s2"), owner: b)
        cache.markUnreachable(a)
        #expect(cache.isUnreachable(a) && !cache.isUnreachable(b))
        #expect(cache.owner(of: SessionID("s1")) == nil)
        #expect(cache.owner(of: SessionID("s2")) == b)
    }

    @Test func aNodeThatCouldNotBeReachedIsTriedAgainAfterThat() async throws {
        let cache = RouteCache(unreachableFor: .zero)
        cache.remember(SessionID("s1"), owner: a)
        cache.markUnreachable(a)
        try await Task.sleep(for: .milliseconds(1))
        #expect(!cache.isUnreachable(a))
        #expect(cache.owner(of: SessionID("s1")) == a, "a came back (a restart with the same name)")
    }

    @Test func theCacheStartsOverPastItsCapacity() {
        let cache = RouteCache(capacity: 3)
        for index in 0..<3 { cache.remember(SessionID("s\(index)"), owner: a) }
        #expect(cache.owner(of: SessionID("s0")) == a)
        cache.remember(SessionID("s3"), owner: b)
        #expect(cache.owner(of: SessionID("s0")) == nil)
        #expect(cache.owner(of: SessionID("s3")) == b)
    }

    @Test func onlyTheSecretMakesAHop() {
        let hop = ClusterHop(node: "a", secret: "0123456789abcdef")
        func request(_ value: String?) -> HTTPRequest {
            HTTPRequest(method: .get, target: "/", headers: value.map { [ClusterHop.field: $0] } ?? [:])
        }
        #expect(hop.isHop(request("0123456789abcdef")))
        #expect(!hop.isHop(request(nil)))
        #expect(!hop.isHop(request("0123456789abcdeF")))
        #expect(!hop.isHop(request("0123456789abcdef0")))
        #expect(!hop.isHop(request("")))
    }
}
