import HTTPCore
import Prometheus
import ViewHostLocking

/// The app's Prometheus metrics, on a registry of its own (passed in, not bootstrapped globally): requests by
/// route, method and status, their latency, open connections, live sessions, accepted events and open streams.
final class AppMetrics: Sendable {
    /// One route's collectors, made once at registration so a request costs a dictionary hit per status.
    final class RouteMetrics: Sendable {
        let route: String
        let method: String
        let duration: DurationHistogram
        private let registry: PrometheusCollectorRegistry
        private let counters = Locked<[Int: Counter]>([:])

        init(route: String, method: String, registry: PrometheusCollectorRegistry) {
            self.route = route
            self.method = method
            self.registry = registry
            duration = registry.makeDurationHistogram(
                descriptor: AppMetrics.durationDescriptor, labels: [("route", route), ("method", method)],
                buckets: AppMetrics.buckets)
        }

        func record(status: Int, since start: ContinuousClock.Instant) {
            duration.record(start.duration(to: .now))
            let counter = counters.withLock { counters in
                if let counter = counters[status] { return counter }
                let counter = registry.makeCounter(
                    descriptor: AppMetrics.requestsDescriptor,
                    labels: [("route", route), ("method", method), ("status", String(status))])
                counters[status] = counter
                return counter
            }
            counter.increment()
        }
    }

    // Computed: the descriptor type is not Sendable, so it cannot be a stored static.
    static var requestsDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "viewhost", subsystem: "http", metricName: "requests", unitName: "total",
            helpText: "HTTP requests answered, by route pattern, method and status.")
    }
    static var durationDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "viewhost", subsystem: "http", metricName: "request_duration", unitName: "seconds",
            helpText: "Time from routing a request to its response, by route pattern and method.")
    }
    static let buckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5), .seconds(30), .seconds(60),
    ]

    let registry = PrometheusCollectorRegistry()
    private let openConnections: Gauge
    private let acceptedConnections: MirroredCounter
    private let liveSessions: Gauge
    private let openStreams: Gauge
    private let acceptedEvents = Locked<[String: Counter]>([:])
    private let storeCommits: MirroredCounter
    private let storeWrites: MirroredCounter
    private let clusterTakeovers: MirroredCounter
    private let clusterForwarded: MirroredCounter
    private let timerLoads: MirroredCounter
    /// Deliveries between sessions.
    let deliveries: DeliveryMetrics

    init() {
        openConnections = Self.gauge(
            registry, subsystem: "http", name: "connections_open", help: "Open HTTP connections.")
        acceptedConnections = MirroredCounter(
            registry, subsystem: "http", name: "connections_accepted",
            help: "Connections accepted since start.")
        liveSessions = Self.gauge(registry, subsystem: "sessions", name: "live", help: "Live sessions.")
        openStreams = Self.gauge(registry, subsystem: "streams", name: "open", help: "Open server-sent event streams.")
        storeCommits = MirroredCounter(
            registry, subsystem: "store", name: "commits",
            help: "Transactions the durable store committed (each one fsync with store.sync full).")
        storeWrites = MirroredCounter(
            registry, subsystem: "store", name: "writes",
            help: "Session and journal writes those transactions carried (group commit shares one).")
        clusterTakeovers = MirroredCounter(
            registry, subsystem: "cluster", name: "takeovers",
            help: "Sessions this node took over from another node (a shared store).")
        clusterForwarded = MirroredCounter(
            registry, subsystem: "cluster", name: "forwarded",
            help: "Requests this node forwarded to the node that owns their session.")
        deliveries = DeliveryMetrics(registry)
        timerLoads = MirroredCounter(
            registry, subsystem: "sessions", name: "timer_loads",
            help: "Stored sessions loaded because a timer of theirs fell due (at start, or after they left memory).")
    }

    /// A gauge `viewhost_SUBSYSTEM_NAME` on `registry`, with its help text (a gauge's value has no unit suffix).
    private static func gauge(
        _ registry: PrometheusCollectorRegistry, subsystem: String, name: String, help: String
    ) -> Gauge {
        registry.makeGauge(
            descriptor: .init(
                namespace: "viewhost", subsystem: subsystem, metricName: name, unitName: "", helpText: help))
    }

    /// Brings the count of sessions loaded for their timers up to the registry's.
    func timerLoadCount(_ total: Int) {
        timerLoads.report(total)
    }

    /// Brings the cluster's counters up to the store's and the hop's own counts.
    func clusterCounts(takeovers: Int, forwarded: Int) {
        clusterTakeovers.report(takeovers)
        clusterForwarded.report(forwarded)
    }

    /// Brings the store's counters up to the durable store's own counts.
    func storeCounts(commits: Int, writes: Int) {
        storeCommits.report(commits)
        storeWrites.report(writes)
    }

    /// Collectors for one route.
    func route(_ pattern: String, method: HTTPMethod) -> RouteMetrics {
        RouteMetrics(route: pattern, method: method.rawValue, registry: registry)
    }

    /// Counts events accepted for `feature`.
    func eventsAccepted(_ count: Int, feature: String) {
        let counter = acceptedEvents.withLock { counters in
            if let counter = counters[feature] { return counter }
            let counter = registry.makeCounter(
                descriptor: .init(
                    namespace: "viewhost", subsystem: "events", metricName: "accepted", unitName: "total",
                    helpText: "Client events accepted (202), by feature."),
                labels: [("feature", feature)])
            counters[feature] = counter
            return counter
        }
        counter.increment(by: Int64(count))
    }

    /// The Prometheus text exposition, with the gauges read now.
    func exposition(connections: Int, accepted: Int, sessions: Int, streams: Int) -> [UInt8] {
        openConnections.set(Double(connections))
        acceptedConnections.report(accepted)
        liveSessions.set(Double(sessions))
        openStreams.set(Double(streams))
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
