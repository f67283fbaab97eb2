import Prometheus
import ViewHostLocking

/// A Prometheus counter that follows a total kept elsewhere (the server's accepted connections, the store's
/// commits): each report raises it by what the total grew since the last one, never lowers it.
final class MirroredCounter: Sendable {
    private let counter: Counter
    private let reported = Locked(0)

    /// A counter `viewhost_SUBSYSTEM_NAME_total` on `registry`, with its help text.
    init(
        _ registry: PrometheusCollectorRegistry, subsystem: String, name: String, help: String,
        labels: [(String, String)] = []
    ) {
        counter = registry.makeCounter(
            descriptor: .init(
                namespace: "viewhost", subsystem: subsystem, metricName: name, unitName: "total", helpText: help),
            labels: labels)
    }

    /// Brings the counter up to `total`.
    func report(_ total: Int) {
        let growth = reported.withLock { reported in
            defer { reported = max(reported, total) }
            return max(0, total - reported)
        }
        counter.increment(by: Int64(growth))
    }
}
