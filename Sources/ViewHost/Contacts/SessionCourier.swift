import Foundation
import Logging
import Synchronization
import ViewHostLocking
import ViewModelCore

/// The app's courier (``DeliveryCourier``): takes each session's deliveries to contacts to the sessions they are for,
/// once the inputs that made them are durable. Per sending session one run at a time reads what is ready, in the
/// order it was made, looks each address up in the contact directory (an address works only for the session it was
/// made for), has the receiving session apply it (in memory here, loaded from the store, or through the hop to the
/// node that owns it), and journals the receiver's word on the sender: arrived, or not and why (`ended`, `full`,
/// `unknownAddress`). A receiver that cannot be reached now is tried again after a bounded backoff
/// (``firstRetry`` doubling to ``lastRetry``), on the injected scheduler; what waits meanwhile stays in the sender's
/// value, so a restart or another node picks it up where it was.
///
/// A receiving session takes at most ``maxBacklog`` delivered events at once (being applied on this node); one that
/// finds it full comes back to its sender as `full`.
final class SessionCourier: DeliveryCourier {
    /// What came of one delivery batch.
    enum Outcome: Sendable, Equatable {
        /// The receiver applied it (or had before): durable there.
        case applied
        /// It cannot arrive, and why: its sender is told.
        case failed(DeliveryFailure)
        /// It did not arrive now (a store or node that does not answer): tried again later.
        case retry(String)
    }

    /// One sending session's run: the copy it works on, whether more became ready while it ran, and its backoff.
    private struct Run {
        var session: Session
        var again = false
        var attempt = 0
        var retry: ScheduledTimer?
    }

    private struct State {
        var runs: [SessionID: Run] = [:]
        var backlog: [SessionID: Int] = [:]
        var routes: [ContactAddress: ContactRoute] = [:]
    }

    /// A reference to the registry that does not keep it alive (it holds the courier through its sessions'
    /// environment).
    private struct RegistryReference {
        weak var registry: SessionRegistry?
    }

    /// The most events in one delivery batch (one input of the receiver).
    static let maxEvents = 64
    /// The first wait before a delivery is tried again, doubled each time up to ``lastRetry``.
    static let firstRetry = Duration.milliseconds(100)
    /// The longest wait before a delivery is tried again.
    static let lastRetry = Duration.seconds(10)
    /// The most routes kept in memory (an address's route never changes once made).
    static let routeCapacity = 100_000

    let scheduler: any TimerScheduling
    let logger: Logger
    let maxBacklog: Int
    /// Deliveries made, tried again and refused, since start (for `/metrics`).
    let counts = DeliveryCounts()
    private let state = Locked(State())
    private let reference = Locked(RegistryReference())

    init(scheduler: any TimerScheduling, logger: Logger, maxBacklog: Int) {
        self.scheduler = scheduler
        self.logger = logger
        self.maxBacklog = max(1, maxBacklog)
    }

    /// Sets the registry whose sessions this courier serves.
    func attach(_ registry: SessionRegistry) {
        reference.withLock { $0.registry = registry }
    }

    private var registry: SessionRegistry? { reference.withLock { $0.registry } }

    func deliveriesReady(in session: Session) {
        let start = state.withLock { state -> Bool in
            guard var run = state.runs[session.id] else {
                state.runs[session.id] = Run(session: session)
                return true
            }
            run.again = true
            run.session = session
            state.runs[session.id] = run
            return false
        }
        if start { Task.detached { await self.run(session.id) } }
    }

    /// Delivers what `id`'s session has ready until nothing is, or a receiver cannot be reached (then the run waits
    /// for its backoff).
    private func run(_ id: SessionID) async {
        while let session = takeTurn(id) {
            let batches: [DeliveryBatch]
            do {
                batches = try session.readyDeliveries(maxEvents: Self.maxEvents)
            } catch {
                // Journaled, so once encoded: a feature whose events no longer encode is said, and its deliveries wait.
                logger.error(
                    "a session's deliveries cannot be encoded", metadata: ["session-id": "\(id)", "reason": "\(error)"])
                return wait(id, because: "\(error)")
            }
            guard !batches.isEmpty else {
                if finish(id) { return }
                continue
            }
            var blocked: Set<ContactAddress> = []
            var retry: String?
            // In the order they were made; a receiver that cannot be reached holds back its later batches only.
            for batch in batches where !blocked.contains(batch.to) {
                switch await deliver(batch, from: session) {
                case .applied:
                    counts.delivered(batch.count)
                    session.acknowledge(batch.feature, to: batch.to, through: batch.last, failure: nil)
                case .failed(let reason):
                    counts.failed(batch.count, because: reason)
                    session.acknowledge(batch.feature, to: batch.to, through: batch.last, failure: reason)
                case .retry(let reason):
                    counts.retried()
                    blocked.insert(batch.to)
                    retry = reason
                }
            }
            if let retry { return wait(id, because: retry) }
            state.withLock { $0.runs[id]?.attempt = 0 }
        }
    }

    /// The session to deliver for now (more may become ready while this turn runs).
    private func takeTurn(_ id: SessionID) -> Session? {
        state.withLock { state in
            state.runs[id]?.again = false
            return state.runs[id]?.session
        }
    }

    /// Ends the run when nothing became ready meanwhile.
    private func finish(_ id: SessionID) -> Bool {
        state.withLock { state in
            guard let run = state.runs[id], !run.again else { return false }
            state.runs[id] = nil
            return true
        }
    }

    /// Tries `id`'s deliveries again after its backoff.
    private func wait(_ id: SessionID, because reason: String) {
        let delay = state.withLock { state -> Duration? in
            guard var run = state.runs[id] else { return nil }
            run.attempt += 1
            let delay = min(Self.lastRetry, Self.firstRetry * (1 << min(run.attempt - 1, 16)))
            state.runs[id] = run
            return delay
        }
        guard let delay else { return }
        logger.debug(
            "deliveries wait", metadata: ["session-id": "\(id)", "reason": "\(reason)", "retry-in": "\(delay)"])
        let timer = scheduler.schedule(after: delay) { [weak self] in self?.resume(id) }
        state.withLock { $0.runs[id]?.retry = timer }
    }

    private func resume(_ id: SessionID) {
        let resumes = state.withLock { state -> Bool in
            guard state.runs[id] != nil else { return false }
            state.runs[id]?.retry = nil
            return true
        }
        if resumes { Task.detached { await self.run(id) } }
    }

    /// Takes `batch` of `sender`'s to its receiver.
    private func deliver(_ batch: DeliveryBatch, from sender: Session) async -> Outcome {
        guard let registry else { return .retry("the server is stopping") }
        let route: ContactRoute?
        do {
            route = try await self.route(of: batch.to, in: registry)
        } catch {
            return .retry("the contact directory: \(error)")
        }
        // An address works only for the session it was made for (an imported copy holds the original's).
        guard let route, route.owner == sender.id, route.feature == batch.feature else {
            return .failed(.unknownAddress)
        }
        return await registry.deliver(
            IncomingDelivery(batch, from: route.peerAddress), count: batch.count, to: route.peer)
    }

    private func route(of address: ContactAddress, in registry: SessionRegistry) async throws -> ContactRoute? {
        if let known = state.withLock({ $0.routes[address] }) { return known }
        let contacts = registry.contacts
        let route = try await OffLoop.run { try contacts.route(of: address) }
        if let route {
            state.withLock { state in
                if state.routes.count >= Self.routeCapacity { state.routes.removeAll(keepingCapacity: true) }
                state.routes[address] = route
            }
        }
        return route
    }

    /// Has `receiver` apply `delivery` (`count` events), within its backlog, and waits until it is durable there.
    func apply(_ delivery: IncomingDelivery, count: Int, to receiver: Session) async -> Outcome {
        let reserved = state.withLock { state -> Bool in
            let used = state.backlog[receiver.id] ?? 0
            guard used == 0 || used + count <= maxBacklog else { return false }
            state.backlog[receiver.id] = used + count
            return true
        }
        guard reserved else { return .failed(.full) }
        defer {
            state.withLock { state in
                let left = (state.backlog[receiver.id] ?? count) - count
                state.backlog[receiver.id] = left > 0 ? left : nil
            }
        }
        do throws(SessionError) {
            try await receiver.receive(delivery)?.value()
            return .applied
        } catch {
            switch error {
            case .ended(.deleted), .ended(.expired): return .failed(.ended)
            case .noSuchFeature: return .failed(.unknownAddress)
            default: return .retry("the receiving session: \(error)")
            }
        }
    }
}

/// The courier's counts since start: events delivered, batches tried again, events refused by reason.
final class DeliveryCounts: Sendable {
    private let deliveredCount = Atomic<Int>(0)
    private let retriedCount = Atomic<Int>(0)
    private let failedCounts = Locked<[DeliveryFailure: Int]>([:])

    func delivered(_ count: Int) { deliveredCount.add(count, ordering: .relaxed) }

    func retried() { retriedCount.add(1, ordering: .relaxed) }

    func failed(_ count: Int, because reason: DeliveryFailure) {
        failedCounts.withLock { $0[reason, default: 0] += count }
    }

    /// Events delivered.
    var delivered: Int { deliveredCount.load(ordering: .relaxed) }
    /// Batches tried again.
    var retries: Int { retriedCount.load(ordering: .relaxed) }
    /// Events that did not arrive, by why.
    var failures: [DeliveryFailure: Int] { failedCounts.withLock { $0 } }
}
