import Prometheus
import ViewModelCore

/// The courier's counts as Prometheus counters: `viewhost_deliveries_delivered_total` (events that arrived),
/// `viewhost_deliveries_retries_total` (batches tried again: a receiver that could not be reached) and
/// `viewhost_deliveries_failed_total{reason}` (events that did not arrive: `ended`, `full`, `unknownAddress`).
final class DeliveryMetrics: Sendable {
    private let delivered: MirroredCounter
    private let retries: MirroredCounter
    private let failed: [DeliveryFailure: MirroredCounter]

    init(_ registry: PrometheusCollectorRegistry) {
        delivered = MirroredCounter(
            registry, subsystem: "deliveries", name: "delivered",
            help: "Events delivered to other sessions that their receivers applied (each once).")
        retries = MirroredCounter(
            registry, subsystem: "deliveries", name: "retries",
            help: "Delivery batches tried again because the receiving session could not be reached.")
        var failed: [DeliveryFailure: MirroredCounter] = [:]
        for reason in DeliveryFailure.allCases {
            failed[reason] = MirroredCounter(
                registry, subsystem: "deliveries", name: "failed",
                help: "Events delivered to other sessions that did not arrive, by why (their senders were told).",
                labels: [("reason", reason.rawValue)])
        }
        self.failed = failed
    }

    /// Brings the counters up to the courier's counts.
    func report(_ counts: DeliveryCounts) {
        delivered.report(counts.delivered)
        retries.report(counts.retries)
        let failures = counts.failures
        for (reason, counter) in failed { counter.report(failures[reason] ?? 0) }
    }
}
