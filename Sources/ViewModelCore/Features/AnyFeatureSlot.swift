import Foundation
import ViewHostAPI
import ViewHostJSON

/// A feature slot of any feature: what the session core needs without knowing the feature's types.
protocol AnyFeatureSlot: Sendable {
    /// The feature's name.
    var name: String { get }
    var version: Int { get }
    var lastChangeSequence: Int { get }
    /// The pending timers' numbers and due instants.
    var timerStarts: [TimerStart] { get }
    /// When the earliest pending timer falls due, if one is pending (without making ``timerStarts``).
    var earliestTimerDue: Date? { get }
    /// The requests not answered yet.
    var pendingRequests: [PendingRequest] { get }

    /// Refuses `events` (the feature's `Event`s) if the first cannot be applied now.
    func check(first event: any Sendable) throws(EventRefusal)
    /// Applies one event of the feature's type as a step; `participant` names who sent a client's event.
    mutating func step(
        erased event: any Sendable, source: EventSource, causedBy: Int?, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput, participant: String?)
    /// Fires timer `id` if it is this feature's.
    mutating func fire(
        timer id: Int, now: Date, settings: SessionSettings, counters: inout SessionCounters, output: inout StepOutput
    ) -> Bool
    /// Applies the answer to request `id`, if it is this feature's and still pending.
    mutating func answer(
        request id: Int, with event: any Sendable, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput
    ) -> Bool
    /// How many deliveries wait for their receivers' word.
    var outboxCount: Int { get }
    /// The highest number pending per address.
    var deliveryMarks: [ContactAddress: Int] { get }
    /// When the earliest pending delivery was decided.
    var earliestDeliveryAt: Date? { get }
    /// Whether this slot made the contact at `address` or was introduced to it.
    func knows(_ address: ContactAddress) -> Bool
    /// The number of the last delivery from `address` this slot applied (0: none).
    func lastReceived(from address: ContactAddress) -> Int
    /// How many addresses this slot delivered to or applied deliveries from.
    var linkCount: Int { get }
    /// Makes a contact here (see `FeatureSlot.introduce`).
    mutating func introduce(
        _ contact: Contact, as name: String, now: Date, settings: SessionSettings, counters: inout SessionCounters,
        output: inout StepOutput
    ) -> Bool
    /// Applies deliveries from a contact, `events` being the feature's events (see `FeatureSlot.receive`).
    mutating func receive(
        erased events: [any Sendable], from: ContactAddress, first: Int, introduction: String?, now: Date,
        settings: SessionSettings, counters: inout SessionCounters, output: inout StepOutput
    ) -> Bool
    /// The receiver's word on deliveries (see `FeatureSlot.acknowledge`).
    mutating func acknowledge(
        to: ContactAddress, through: Int, failure: DeliveryFailure?, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput
    ) -> Bool
    /// The pending deliveries up to `marks`, in batches (see `FeatureSlot.batches`).
    func batches(upTo marks: [ContactAddress: Int]?, maxEvents: Int) throws(UnstorableValue) -> [DeliveryBatch]
    /// Forgets every pending delivery and contact number (an imported copy reaches no one).
    mutating func dropDeliveries()
    /// The snapshot of the current state as `viewer` sees it.
    func snapshot(settings: SessionSettings, viewer: Viewer) -> any ViewModel
    /// Builds the snapshot of the current state when called, later, whatever the slot has become by then.
    func snapshotMaker(settings: SessionSettings) -> SnapshotBuilder
    /// Whether the feature's snapshot depends on who is looking (it is a ``ViewerDependentFeature``).
    static var dependsOnViewer: Bool { get }
    /// Whether `other` is the same feature in the same state.
    func isEqual(to other: any AnyFeatureSlot) -> Bool
    /// Writes the slot.
    func encode(to encoder: any Encoder) throws
    /// Encodes events of this feature (for the journal).
    func encodeEvents(_ events: [any Sendable]) throws -> Data
    /// Decodes events of this feature (for a replay); `parsed`: `data` already parsed, when the caller has it.
    func decodeEvents(from data: Data, parsed: JSONValue?, with decoder: JSONDecoder) throws -> [any Sendable]
    /// Pending timer `id`'s source and event, encoded as a journal records events, if it is this feature's.
    /// - Throws: ``UnstorableValue`` when its event cannot be encoded.
    func encodedTimer(_ id: Int) throws(UnstorableValue) -> (source: EventSource, events: Data)?
    /// What is wrong with the slot, read from outside (nil: a live session could hold it).
    func problem(within bounds: ValueBounds) -> ValueRejection?
    /// What is wrong with `events` of this feature, read from outside (nil: the feature accepts each).
    static func problem(events: [any Sendable]) -> ValueRejection?
    /// Encodes events of this feature as a journal records them, with nothing of a slot (a record kept in memory
    /// holds the slot's type, no allocation, and encodes its events when it is read).
    /// - Throws: ``UnstorableValue`` naming the event and field that cannot be encoded.
    static func encodedEvents(_ events: [any Sendable]) throws(UnstorableValue) -> Data
}

extension FeatureSlot: AnyFeatureSlot {
    var name: String { F.key.name }

    var timerStarts: [TimerStart] { timers.values.map { TimerStart(id: $0.id, dueAt: $0.dueAt, delay: nil) } }

    var earliestTimerDue: Date? { timers.earliestDue }

    var pendingRequests: [PendingRequest] {
        requests.map { PendingRequest(id: $0.id, feature: F.key.name, request: $0.request, causedBy: $0.causedBy) }
    }

    func check(first event: any Sendable) throws(EventRefusal) {
        try F.check(Self.typed(event), in: state)
    }

    mutating func step(
        erased event: any Sendable, source: EventSource, causedBy: Int?, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput, participant: String?
    ) {
        step(
            Self.typed(event), source: source, causedBy: causedBy, now: now, settings: settings, counters: &counters,
            output: &output, participant: participant)
    }

    mutating func fire(
        timer id: Int, now: Date, settings: SessionSettings, counters: inout SessionCounters, output: inout StepOutput
    ) -> Bool {
        guard let timer = removeTimer(id) else { return false }
        step(
            timer.event, source: timer.source, causedBy: timer.causedBy, now: now, settings: settings,
            counters: &counters, output: &output)
        return true
    }

    mutating func answer(
        request id: Int, with event: any Sendable, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput
    ) -> Bool {
        guard let index = requests.firstIndex(where: { $0.id == id }) else { return false }
        let work = requests.remove(at: index)
        if requests.isEmpty { requests = [] }
        step(
            Self.typed(event), source: .provider, causedBy: work.causedBy, now: now, settings: settings,
            counters: &counters, output: &output)
        return true
    }

    var outboxCount: Int { outbox.count }

    func knows(_ address: ContactAddress) -> Bool { links[address] != nil }

    func lastReceived(from address: ContactAddress) -> Int { links[address]?.received ?? 0 }

    var linkCount: Int { links.count }

    mutating func receive(
        erased events: [any Sendable], from: ContactAddress, first: Int, introduction: String?, now: Date,
        settings: SessionSettings, counters: inout SessionCounters, output: inout StepOutput
    ) -> Bool {
        receive(
            from: from, first: first, introduction: introduction, events: events.map(Self.typed), now: now,
            settings: settings, counters: &counters, output: &output)
    }

    mutating func dropDeliveries() {
        outbox = []
        links = [:]
    }

    func snapshot(settings: SessionSettings, viewer: Viewer) -> any ViewModel {
        F.snapshot(of: state, settings: settings, viewer: viewer)
    }

    func snapshotMaker(settings: SessionSettings) -> SnapshotBuilder {
        let state = state
        return SnapshotBuilder { F.snapshot(of: state, settings: settings, viewer: $0) }
    }

    static var dependsOnViewer: Bool { F.dependsOnViewer }

    func isEqual(to other: any AnyFeatureSlot) -> Bool {
        (other as? Self) == self
    }

    func encodeEvents(_ events: [any Sendable]) throws -> Data {
        try StoredEvents<F>.encoded(events.map(Self.typed))
    }

    func decodeEvents(from data: Data, parsed: JSONValue?, with decoder: JSONDecoder) throws -> [any Sendable] {
        // Our own decoder first (a replay decodes every stored event again); JSONDecoder for what it leaves, and
        // for the error a record that does not decode gets.
        if let value = parsed ?? (try? JSONParser.parse([UInt8](data), maxDepth: 512)) {
            // A bare array (schema version 1) as it is, without asking for the object form first.
            if case .array = value, F.schemaVersion == 1,
                let events = try? JSONValueDecoder().decode(StoredEvents<F>.Bare.self, from: value)
            {
                return events.events
            }
            if let stored = try? JSONValueDecoder().decode(StoredEvents<F>.self, from: value) { return stored.events }
        }
        return try decoder.decode(StoredEvents<F>.self, from: data).events
    }

    static func encodedEvents(_ events: [any Sendable]) throws(UnstorableValue) -> Data {
        do {
            return try StoredEvents<F>.encoded(events.map(Self.typed))
        } catch {
            throw UnstorableValue(error, feature: F.key.name, in: "events")
        }
    }

    func encodedTimer(_ id: Int) throws(UnstorableValue) -> (source: EventSource, events: Data)? {
        guard let timer = timers[id] else { return nil }
        do {
            return (timer.source, try StoredEvents<F>.encoded([timer.event]))
        } catch {
            throw UnstorableValue(error, feature: F.key.name, in: "timers[\(id)].event")
        }
    }

    /// `event` as this feature's event type; anything else is a programming error of the app layer.
    private static func typed(_ event: any Sendable) -> F.Event {
        guard let typed = event as? F.Event else {
            preconditionFailure("event \(type(of: event)) routed to feature \(F.key.name)")
        }
        return typed
    }
}
