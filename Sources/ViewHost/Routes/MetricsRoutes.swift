import HTTPCore
import Synchronization
import ViewHostLocking
import ViewModelCore

/// `GET /metrics`: Prometheus text exposition (version 0.0.4).
enum MetricsRoutes {
    /// The server, known only once it is made (after its routes), for its connection counts.
    final class ServerReference: Sendable {
        private let server = Locked<HTTPServer?>(nil)

        func set(_ value: HTTPServer) {
            server.withLock { $0 = value }
        }

        var value: HTTPServer? { server.withLock { $0 } }
    }

    static func register(
        on router: inout MeteredRouter, metrics: AppMetrics, registry: SessionRegistry, streams: StreamLimiter,
        server: ServerReference
    ) {
        router.get("/metrics") { _, _ in
            let live = server.value
            if let counts = registry.commitCounts {
                metrics.storeCounts(commits: counts.commits, writes: counts.writes)
            }
            metrics.timerLoadCount(registry.dueLoads.load(ordering: .relaxed))
            metrics.deliveries.report(registry.courier.counts)
            if let shared = (registry.storage as? any SharedSessionStorage) {
                metrics.clusterCounts(takeovers: shared.takeovers, forwarded: registry.cluster?.forwarded ?? 0)
            }
            let body = metrics.exposition(
                connections: live?.openConnectionCount ?? 0, accepted: live?.acceptedConnectionCount ?? 0,
                sessions: registry.store.count, streams: streams.openCount)
            return HTTPResponse(
                contentType: "text/plain; version=0.0.4; charset=utf-8", bytes: body,
                headers: [.cacheControl: "no-store"])
        }
    }
}
