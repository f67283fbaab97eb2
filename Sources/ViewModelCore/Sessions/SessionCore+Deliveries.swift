import Foundation
import ViewHostAPI

/// Deliveries between sessions, as the value sees them: the three inputs they bring (a contact made here, deliveries
/// from a contact, the receiver's word on this session's own), and the pending deliveries read out for the library's
/// courier. Pure, as the rest of the core: the same inputs give the same values, so either session's journal replays
/// its side alone (``SessionInput/delivery(feature:at:from:number:introduction:events:)``,
/// ``SessionInput/introduction(feature:at:contact:name:introducing:)``,
/// ``SessionInput/acknowledgement(feature:at:to:through:failure:)``).
extension SessionCore {
    /// How many deliveries wait for their receivers' word, over every feature.
    public var pendingDeliveryCount: Int { slots.reduce(0) { $0 + $1.outboxCount } }

    /// The highest number pending per feature and address (the deliveries a restored session hands to the courier).
    public var deliveryMarks: [String: [ContactAddress: Int]] {
        var marks: [String: [ContactAddress: Int]] = [:]
        for slot in slots where slot.outboxCount > 0 { marks[slot.name] = slot.deliveryMarks }
        return marks
    }

    /// The pending deliveries numbered at or below `marks` (per feature and address; all when nil), in batches for
    /// their receivers, each of at most `maxEvents` events to one address, in the order they were made.
    /// - Throws: ``UnstorableValue`` when an event cannot be encoded.
    public func deliveryBatches(upTo marks: [String: [ContactAddress: Int]]?, maxEvents: Int = 64)
        throws(UnstorableValue)
        -> [DeliveryBatch]
    {
        var batches: [DeliveryBatch] = []
        for slot in slots where slot.outboxCount > 0 {
            if let marks, marks[slot.name] == nil { continue }
            batches += try slot.batches(upTo: marks?[slot.name], maxEvents: max(1, maxEvents))
        }
        return batches
    }

    /// Whether `feature` made the contact at `address` or was introduced to it.
    public func knows(_ address: ContactAddress, in feature: String) -> Bool {
        slot(named: feature).map { slots[$0].knows(address) } ?? false
    }

    /// Makes `contact` for `feature` (this session redeemed an invitation): the feature's ``Feature/introduced(to:)``
    /// event is applied (source `session`), and an introduction naming this session `name` is queued for the contact.
    /// - Returns: The step, or nil when the contact was made here before (nothing changed, nothing to journal).
    /// - Throws: ``SessionRefusal/noSuchFeature(_:)``.
    public mutating func introduce(
        _ contact: Contact, in feature: String, as name: String, at now: Date,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)? = nil
    ) throws(SessionRefusal) -> SessionStep? {
        guard let index = slot(named: feature) else { throw .noSuchFeature(feature) }
        var output = StepOutput(observe: observe)
        guard
            slots[index].introduce(
                contact, as: name, now: now, settings: settings, counters: &counters, output: &output)
        else { return nil }
        return finish(output, slot: index)
    }

    /// Applies `delivery`: the deliveries in it this session has not applied yet, each event a step (source
    /// `session`) unless its feature does not take it from that contact.
    /// - Returns: The step, or nil when every number in it was applied before (nothing changed, nothing to journal).
    /// - Throws: ``ReplayError`` when there is no such feature or its events do not decode.
    public mutating func receive(
        _ delivery: IncomingDelivery, at now: Date,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)? = nil
    ) throws(ReplayError) -> SessionStep? {
        guard let index = slot(named: delivery.feature) else { throw .noSuchFeature(delivery.feature) }
        let events =
            delivery.introduction == nil ? try decodedAhead(delivery.events, of: delivery.feature).events.get() : []
        return receive(delivery, events: events, slot: index, at: now, observe: observe)
    }

    /// `delivery` without the events this session applied before (a batch sent again because the sender did not hear
    /// back, with more behind it): what the journal records, so that each delivered event is in it once, and an
    /// export counts each message once. Nil when every number was applied before.
    /// - Throws: ``ReplayError`` when the feature is not this session's or the events do not decode.
    public func unapplied(_ delivery: IncomingDelivery) throws(ReplayError) -> IncomingDelivery? {
        guard let index = slot(named: delivery.feature) else { throw .noSuchFeature(delivery.feature) }
        let received = slots[index].lastReceived(from: delivery.from)
        guard delivery.first <= received else { return delivery }
        guard delivery.introduction == nil else { return nil }
        let events = try decodedAhead(delivery.events, of: delivery.feature).events.get()
        // Numbers run on without a gap, so the new events are the tail past `received` (none when all were applied).
        let applied = received - delivery.first + 1
        guard applied < events.count else { return nil }
        let data: Data
        do {
            data = try slots[index].encodeEvents(Array(events[applied...]))
        } catch {
            throw .undecodableEvents(feature: delivery.feature)
        }
        return IncomingDelivery(
            feature: delivery.feature, from: delivery.from, first: received + 1, introduction: nil, events: data)
    }

    private mutating func receive(
        _ delivery: IncomingDelivery, events: [any Sendable], slot index: Int, at now: Date,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)?
    ) -> SessionStep? {
        var output = StepOutput(observe: observe)
        guard
            slots[index].receive(
                erased: events, from: delivery.from, first: delivery.first, introduction: delivery.introduction,
                now: now,
                settings: settings, counters: &counters, output: &output)
        else { return nil }
        return finish(output, slot: index)
    }

    /// The receiver's word on `feature`'s deliveries to `address` numbered up to `through`: arrived (nil
    /// `failure`: they leave the outbox), or not (the feature's ``Feature/undelivered(_:to:because:)`` events are
    /// applied).
    /// - Returns: The step, or nil when none of them was pending (nothing changed, nothing to journal).
    public mutating func acknowledge(
        _ feature: String, to address: ContactAddress, through: Int, failure: DeliveryFailure?, at now: Date,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)? = nil
    ) -> SessionStep? {
        guard let index = slot(named: feature) else { return nil }
        var output = StepOutput(observe: observe)
        guard
            slots[index].acknowledge(
                to: address, through: through, failure: failure, now: now, settings: settings, counters: &counters,
                output: &output)
        else { return nil }
        return finish(output, slot: index)
    }

    /// This value without a pending delivery or a contact's numbers: what an imported copy of a session starts from
    /// (it holds the conversation, and reaches no one).
    public func droppingDeliveries() -> SessionCore {
        var copy = self
        for index in copy.slots.indices where copy.slots[index].outboxCount > 0 || copy.slots[index].linkCount > 0 {
            copy.slots[index].dropDeliveries()
        }
        return copy
    }

    /// Applies `delivery`, recorded at `now`, with its events decoded ahead (a replay), or decodes them here.
    mutating func replayDelivery(
        _ delivery: IncomingDelivery, at now: Date, decoded: DecodedEvents?,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)?
    ) throws(ReplayError) -> SessionStep? {
        guard let index = slot(named: delivery.feature) else { throw .noSuchFeature(delivery.feature) }
        guard delivery.introduction == nil else {
            return receive(delivery, events: [], slot: index, at: now, observe: observe)
        }
        let events: [any Sendable]
        if let decoded, decoded.feature == delivery.feature, decoded.data == delivery.events {
            events = try decoded.events.get()
        } else {
            events = try decodedAhead(delivery.events, of: delivery.feature).events.get()
        }
        return receive(delivery, events: events, slot: index, at: now, observe: observe)
    }
}

extension SessionCore {
    /// The deliveries `key`'s feature made that their receivers have not acknowledged, in the order they were made.
    public func deliveries<F: Feature>(of key: FeatureKey<F>) -> [FeatureDelivery<F.Event>] {
        guard let index = slot(named: key.name), let slot = slots[index] as? FeatureSlot<F> else { return [] }
        return slot.outbox.map {
            FeatureDelivery(
                to: $0.to, number: $0.number, event: $0.event, introduction: $0.introduction, causedBy: $0.causedBy)
        }
    }
}

/// A delivery a feature made (or the introduction the library sends for a contact it made) that its receiver has
/// not acknowledged yet.
public struct FeatureDelivery<Event: Equatable & Sendable>: Equatable, Sendable {
    /// Where it goes.
    public let to: ContactAddress
    /// Its number among the feature's deliveries to `to`, from 1.
    public let number: Int
    /// The event; nil for an introduction.
    public let event: Event?
    /// For an introduction, the name this session gives itself; nil for an event.
    public let introduction: String?
    /// The sequence number of the step that made it.
    public let causedBy: Int

    /// Creates one (tests compare with these).
    public init(to: ContactAddress, number: Int, event: Event?, introduction: String? = nil, causedBy: Int) {
        self.to = to
        self.number = number
        self.event = event
        self.introduction = introduction
        self.causedBy = causedBy
    }
}
