import Foundation
import ViewHostLocking

/// Deliveries between sessions, as a session's shell carries them out: what is ready for the courier (made by a
/// durable input), deliveries from a contact applied and journaled as an input, the receiver's word journaled as an
/// input of the sender, and a contact made here. Each such input goes through the same pipeline as a client's.
extension Session {
    /// The deliveries ready for their receivers: made by inputs that are durable, not yet acknowledged, in batches
    /// of at most `maxEvents` events for one address, in the order they were made (empty once the session ended).
    /// - Throws: ``UnstorableValue`` when an event cannot be encoded.
    public func readyDeliveries(maxEvents: Int = 64) throws(UnstorableValue) -> [DeliveryBatch] {
        try shell.withLock { shell throws(UnstorableValue) -> [DeliveryBatch] in
            guard !shell.closed, !shell.dispatchable.isEmpty else { return [] }
            if shell.core.pendingDeliveryCount == 0 {
                shell.dispatchable = [:]
                return []
            }
            return try shell.core.deliveryBatches(upTo: shell.dispatchable, maxEvents: maxEvents)
        }
    }

    /// How many deliveries wait for their receivers.
    public var pendingDeliveryCount: Int { shell.withLock { $0.core.pendingDeliveryCount } }

    /// Applies `delivery` (another session's deliveries to a feature of this one), skipping the numbers applied
    /// before, as an input of its own (source `session`).
    /// - Returns: Resolved once everything it applied is durable (with the memory store at once, as nil); when it
    ///   applied nothing new, once what was applied before it is.
    /// - Throws: ``SessionError/ended(_:)`` when the session has ended; ``SessionError/noSuchFeature(_:)`` when it
    ///   has no such feature; ``SessionError/unavailable`` when the events do not decode here (a node of another
    ///   build may read them: the courier tries again).
    public func receive(_ delivery: IncomingDelivery) throws(SessionError) -> CommitTicket? {
        let now = environment.scheduler.now
        let (commit, ticket) = try shell.withLock { shell throws(SessionError) -> (Commit?, CommitTicket?) in
            if let end = shell.end { throw shell.ended(end) }
            shell.pipeline.keepVersionsReadersWaitFor(in: shell.core)
            let step: SessionStep?
            let recorded: IncomingDelivery
            do throws(ReplayError) {
                // Journaled without what was applied before, so each delivered event is recorded once.
                recorded = try shell.core.unapplied(delivery) ?? delivery
                step = try shell.core.receive(recorded, at: now, observe: shell.observer)
            } catch {
                if case .noSuchFeature(let name) = error { throw .noSuchFeature(name) }
                throw .unavailable
            }
            // Applied before: its numbers are acknowledged once what applied them is durable.
            guard let step else { return (nil, shell.pipeline.ticketForAll()) }
            let input: @Sendable () -> SessionInput = {
                .delivery(
                    feature: recorded.feature, at: now, from: recorded.from, number: recorded.first,
                    introduction: recorded.introduction, events: recorded.events)
            }
            let commit = record(.maker(input), step: step, key: nil, waited: true, in: &shell)
            return (commit, commit.ticket)
        }
        if let commit { complete(commit) }
        return ticket
    }

    /// Journals the receiver's word on `feature`'s deliveries to `address` numbered up to `through` (arrived, or
    /// not and why), as an input of this session.
    /// - Returns: Resolved once it is durable; nil when nothing waits for it (none of them was pending, the session
    ///   ended, or there is no journal).
    @discardableResult
    public func acknowledge(
        _ feature: String, to address: ContactAddress, through: Int, failure: DeliveryFailure?
    ) -> CommitTicket? {
        let now = environment.scheduler.now
        let commit = shell.withLock { shell -> Commit? in
            guard !shell.closed else { return nil }
            shell.pipeline.keepVersionsReadersWaitFor(in: shell.core)
            guard
                let step = shell.core.acknowledge(
                    feature, to: address, through: through, failure: failure, at: now, observe: shell.observer)
            else { return nil }
            let input = SessionInput.acknowledgement(
                feature: feature, at: now, to: address, through: through, failure: failure)
            return record(.maker({ input }), step: step, key: nil, waited: true, in: &shell)
        }
        guard let commit else { return nil }
        complete(commit)
        return commit.ticket
    }

    /// Makes `contact` for `feature` here (this session redeemed an invitation), this session introduced to it as
    /// `name`: the feature's ``Feature/introduced(to:)`` event is applied, and the introduction waits for the
    /// courier like any delivery.
    /// - Returns: Resolved once it is durable (nil with the memory store); when the contact was made here before,
    ///   once what made it is.
    /// - Throws: ``SessionError/ended(_:)``, ``SessionError/noSuchFeature(_:)``.
    public func introduce(_ contact: Contact, in feature: String, as name: String) throws(SessionError) -> CommitTicket?
    {
        let now = environment.scheduler.now
        let (commit, ticket) = try shell.withLock { shell throws(SessionError) -> (Commit?, CommitTicket?) in
            if let end = shell.end { throw shell.ended(end) }
            shell.pipeline.keepVersionsReadersWaitFor(in: shell.core)
            let step: SessionStep?
            do throws(SessionRefusal) {
                step = try shell.core.introduce(contact, in: feature, as: name, at: now, observe: shell.observer)
            } catch {
                throw .noSuchFeature(feature)
            }
            guard let step else { return (nil, shell.pipeline.ticketForAll()) }
            let input = SessionInput.introduction(
                feature: feature, at: now, contact: contact.address, name: contact.name, introducing: name)
            let commit = record(.maker({ input }), step: step, key: nil, waited: true, in: &shell)
            return (commit, commit.ticket)
        }
        if let commit { complete(commit) }
        return ticket
    }

    /// Whether `feature` here made the contact at `address` or was introduced to it.
    public func knows(_ address: ContactAddress, in feature: String) -> Bool {
        shell.withLock { $0.core.knows(address, in: feature) }
    }

    /// Marks deliveries durable (an input's effects, or a restored session's outbox) and tells the courier.
    func dispatch(_ marks: [String: [ContactAddress: Int]]) {
        shell.withLock { shell in
            for (feature, addresses) in marks {
                shell.dispatchable[feature, default: [:]].merge(addresses) { max($0, $1) }
            }
        }
        environment.courier?.deliveriesReady(in: self)
    }
}
