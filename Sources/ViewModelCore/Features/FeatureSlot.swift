import Foundation
import ViewHostAPI
import ViewHostJSON

/// The counters every feature of a session draws from while it applies an event.
struct SessionCounters: Equatable, Sendable, Codable {
    /// The newest session-wide sequence number.
    var sequence = 0
    /// The session's random draws.
    var random: RandomSource
    /// The number the next timer gets.
    var nextTimerID = 1
}

/// What one application (one or more steps) produced, beyond the features' new states.
struct StepOutput {
    var entries: [LogEntry] = []
    /// One change per step that changed the feature's version, in order.
    var changes: [SessionChange] = []
    var timersStarted: [TimerStart] = []
    var timersCancelled: [Int] = []
    var requests: [PendingRequest] = []
    /// Told of each new version with a way to build its snapshot (recorders in tests); nil when nobody asks.
    var observe: ((_ feature: String, _ version: Int, _ snapshot: () -> any ViewModel) -> Void)?
}

/// One feature's part of a session: its state, its version, and its pending timers.
struct FeatureSlot<F: Feature>: Equatable, Sendable {
    var state: F.State
    /// Grows by one with every step that changed the state.
    var version = 1
    /// The session-wide sequence number of the step that produced the current version (0 for the first).
    var lastChangeSequence = 0
    /// Timers not yet fired, by number and in due order (a flood of sends leaves hundreds pending).
    var timers = TimerTable<F.Event>()
    /// Requests not yet answered, in the order they were made.
    var requests: [PendingWork<F.Request>] = []

    init(state: F.State) {
        self.state = state
    }

    /// Applies one event and the follow-ups it routes as one step: one version bump at most, one log entry each.
    /// Refusals are checked by the caller, before the first event.
    mutating func step(
        _ event: F.Event, source: EventSource, causedBy: Int?, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput
    ) {
        let firstEntry = output.entries.count
        var changed = false
        var followUps = apply(
            event, source: source, causedBy: causedBy, now: now, settings: settings, counters: &counters,
            output: &output, changed: &changed)
        // Follow-ups in the order they were routed, each after the one that routed it (breadth first); a runaway
        // loop of follow-ups is cut after 256 events, not spun forever.
        var next = 0
        while next < followUps.count, next < 255 {
            let item = followUps[next]
            next += 1
            followUps += apply(
                item.event, source: item.source, causedBy: item.causedBy, now: now, settings: settings,
                counters: &counters, output: &output, changed: &changed)
        }
        guard changed else { return }
        version += 1
        lastChangeSequence = counters.sequence
        output.changes.append(SessionChange(sequence: counters.sequence, versions: [F.key.name: version]))
        for index in firstEntry..<output.entries.count { output.entries[index].versionAfter = version }
        output.observe?(F.key.name, version, { F.snapshot(of: state, settings: settings) })
    }

    /// A follow-up routed by the event with sequence number `causedBy`.
    struct FollowUp {
        let event: F.Event
        let source: EventSource
        let causedBy: Int
    }

    /// Applies one event: the feature's state, a log entry, and the timers and requests it asks for.
    /// - Returns: The follow-ups it routed.
    private mutating func apply(
        _ event: F.Event, source: EventSource, causedBy: Int?, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput, changed: inout Bool
    ) -> [FollowUp] {
        counters.sequence += 1
        let sequence = counters.sequence
        var context = FeatureContext<F>(
            now: now, source: source, sequence: sequence, settings: settings, random: counters.random,
            firstTimerID: counters.nextTimerID)
        F.apply(event, to: &state, context: &context)
        counters.random = context.random
        counters.nextTimerID = context.nextTimerValue
        changed = changed || context.didChange
        let description = F.describe(event)
        output.entries.append(
            LogEntry(
                seq: sequence, at: now, feature: F.key.name, event: description.name, summary: description.summary,
                source: source, causedBy: causedBy, versionAfter: version))
        for scheduled in context.scheduled {
            let delay = settings.realDelay(of: scheduled.delay)
            let dueAt = now.addingTimeInterval(delay.seconds)
            timers.insert(
                PendingTimer(
                    id: scheduled.id.value, dueAt: dueAt, event: scheduled.event, source: scheduled.source,
                    causedBy: sequence))
            output.timersStarted.append(TimerStart(id: scheduled.id.value, dueAt: dueAt, delay: delay))
        }
        // After scheduling: a feature may cancel, in the same step, a timer it has just scheduled.
        for timer in context.cancelled where timers.remove(timer.value) != nil {
            output.timersCancelled.append(timer.value)
        }
        for request in context.requests {
            let id = counters.nextTimerID
            counters.nextTimerID += 1
            requests.append(PendingWork(id: id, request: request, causedBy: sequence))
            output.requests.append(PendingRequest(id: id, feature: F.key.name, request: request, causedBy: sequence))
        }
        guard !context.followUps.isEmpty else { return [] }
        return context.followUps.map { FollowUp(event: $0.event, source: $0.source, causedBy: sequence) }
    }

    /// Takes the pending timer `id` out, if it is this feature's.
    mutating func removeTimer(_ id: Int) -> PendingTimer<F.Event>? {
        timers.remove(id)
    }
}

/// A slot's stored shape: its state, version, last change and pending work, and the feature's schema version
/// when it is not 1 (so a store written before schema versions existed reads as version 1). A slot of an older
/// schema is brought up to date on decoding by the feature's migrations; a newer one is refused.
extension FeatureSlot: Codable {
    private enum CodingKeys: String, CodingKey {
        case schema, state, version, lastChangeSequence, timers, requests
    }

    /// - Throws: ``SchemaError`` for a schema version the feature does not read; ``StoredFeatureError`` naming the
    ///   member that does not decode.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let schema = try container.decodeIfPresent(Int.self, forKey: .schema) ?? 1
        do {
            try self.init(container, schema: schema)
        } catch {
            throw StoredFeatureError(error, of: F.self, storedVersion: schema, base: decoder.codingPath) ?? error
        }
    }

    private init(_ container: KeyedDecodingContainer<CodingKeys>, schema: Int) throws {
        version = try container.decode(Int.self, forKey: .version)
        lastChangeSequence = try container.decode(Int.self, forKey: .lastChangeSequence)
        requests = try container.decodeIfPresent([PendingWork<F.Request>].self, forKey: .requests) ?? []
        if schema == F.schemaVersion {
            state = try container.decode(F.State.self, forKey: .state)
            timers = TimerTable(
                try container.decodeIfPresent([Int: PendingTimer<F.Event>].self, forKey: .timers) ?? [:])
            return
        }
        try F.checkStored(schema: schema)
        state = try F.migrate(state: container.superDecoder(forKey: .state), from: schema)
        timers = TimerTable()
        guard container.contains(.timers) else { return }
        let stored = try container.nestedContainer(keyedBy: SlotTimerKey.self, forKey: .timers)
        var migrated: [Int: PendingTimer<F.Event>] = [:]
        for key in stored.allKeys {
            guard let id = key.intValue ?? Int(key.stringValue) else { continue }
            migrated[id] = try PendingTimer(from: stored.superDecoder(forKey: key)) { decoder in
                try F.migrate(event: decoder, from: schema)
            }
        }
        timers = TimerTable(migrated)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if F.schemaVersion != 1 { try container.encode(F.schemaVersion, forKey: .schema) }
        try container.encode(state, forKey: .state)
        try container.encode(version, forKey: .version)
        try container.encode(lastChangeSequence, forKey: .lastChangeSequence)
        try container.encode(timers.byID, forKey: .timers)
        try container.encode(requests, forKey: .requests)
    }
}

/// A pending timer's number as a key of the stored table.
private struct SlotTimerKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = Int(stringValue)
    }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Feature {
    /// Refuses stored data of schema `schema` that this build cannot bring up to ``schemaVersion``.
    /// - Throws: ``SchemaError``.
    static func checkStored(schema: Int) throws(SchemaError) {
        if schema > schemaVersion { throw .newer(feature: key.name, stored: schema, current: schemaVersion) }
        if schema < oldestMigratableVersion {
            throw .cannotMigrate(feature: key.name, from: schema, to: schemaVersion)
        }
    }
}

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
    /// Applies one event of the feature's type as a step.
    mutating func step(
        erased event: any Sendable, source: EventSource, causedBy: Int?, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput)
    /// Fires timer `id` if it is this feature's.
    mutating func fire(
        timer id: Int, now: Date, settings: SessionSettings, counters: inout SessionCounters, output: inout StepOutput
    ) -> Bool
    /// Applies the answer to request `id`, if it is this feature's and still pending.
    mutating func answer(
        request id: Int, with event: any Sendable, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput
    ) -> Bool
    /// The snapshot of the current state.
    func snapshot(settings: SessionSettings) -> any ViewModel
    /// Builds the snapshot of the current state when called, later, whatever the slot has become by then.
    func snapshotMaker(settings: SessionSettings) -> @Sendable () -> any ViewModel
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
        counters: inout SessionCounters, output: inout StepOutput
    ) {
        step(
            Self.typed(event), source: source, causedBy: causedBy, now: now, settings: settings, counters: &counters,
            output: &output)
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

    func snapshot(settings: SessionSettings) -> any ViewModel {
        F.snapshot(of: state, settings: settings)
    }

    func snapshotMaker(settings: SessionSettings) -> @Sendable () -> any ViewModel {
        let state = state
        return { F.snapshot(of: state, settings: settings) }
    }

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
