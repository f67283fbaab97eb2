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
    /// The highest number each address was given by the deliveries made (the shell hands them to the courier once
    /// the input is durable).
    var deliveries: [ContactAddress: Int] = [:]
    /// Whether a delivery was added to an outbox or taken out of it (the session's next due instant may move).
    var outboxChanged = false
    /// Told of each new version with a way to build its snapshot (recorders in tests); nil when nobody asks.
    var observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)?
}

/// One feature's part of a session: its state, its version, its pending timers and requests, and its contacts'
/// deliveries: those it made that the receiver has not acknowledged (its outbox), and per address the numbers it
/// gave and applied (its links).
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
    /// Deliveries not yet acknowledged by their receivers, in the order they were made.
    var outbox: [PendingDelivery<F.Event>] = []
    /// Per contact address, the last delivery number made to it and applied from it.
    var links: [ContactAddress: ContactLink] = [:]

    init(state: F.State) {
        self.state = state
    }

    /// Applies one event and the follow-ups it routes as one step: one version bump at most, one log entry each.
    /// Refusals are checked by the caller, before the first event.
    /// - Parameters:
    ///   - event: The event.
    ///   - source: Where it came from.
    ///   - causedBy: The log entry of the input that caused it, if another did.
    ///   - now: The instant it is applied at.
    ///   - settings: The session's settings.
    ///   - counters: The session's counters (timers, requests and deliveries are numbered from them).
    ///   - output: What the step made, added to.
    ///   - sender: For an event another session delivered, the address this session knows its sender by.
    ///   - participant: For a client's event, who sent it (``Participant/ownerID`` for the owner); its follow-ups
    ///     are the session's own, and name no one.
    mutating func step(
        _ event: F.Event, source: EventSource, causedBy: Int?, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput, sender: ContactAddress? = nil,
        participant: String? = nil
    ) {
        let firstEntry = output.entries.count
        var changed = false
        if var followUps = apply(
            event, source: source, causedBy: causedBy, now: now, settings: settings, counters: &counters,
            output: &output, changed: &changed, sender: sender, participant: participant)
        {
            // Follow-ups in the order they were routed, each after the one that routed it (breadth first); a runaway
            // loop of follow-ups is cut after 256 events, not spun forever.
            var next = 0
            while next < followUps.count, next < 255 {
                let item = followUps[next]
                next += 1
                if let more = apply(
                    item.event, source: item.source, causedBy: item.causedBy, now: now, settings: settings,
                    counters: &counters, output: &output, changed: &changed)
                {
                    followUps += more
                }
            }
        }
        guard changed else { return }
        version += 1
        lastChangeSequence = counters.sequence
        output.changes.append(SessionChange(sequence: counters.sequence, versions: [F.key.name: version]))
        for index in firstEntry..<output.entries.count { output.entries[index].versionAfter = version }
        if let observe = output.observe { observe(F.key.name, version, snapshotMaker(settings: settings)) }
    }

    /// A follow-up routed by the event with sequence number `causedBy`.
    struct FollowUp {
        let event: F.Event
        let source: EventSource
        let causedBy: Int
    }

    /// Applies one event: the feature's state, a log entry, and the timers, requests and deliveries it asks for.
    /// - Returns: The follow-ups it routed; nil for none, which (unlike an empty array of this generic type) costs no
    ///   lookup of the array's type in the runtime's metadata cache, on every event.
    private mutating func apply(
        _ event: F.Event, source: EventSource, causedBy: Int?, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput, changed: inout Bool, sender: ContactAddress? = nil,
        participant: String? = nil
    ) -> [FollowUp]? {
        counters.sequence += 1
        let sequence = counters.sequence
        var context = FeatureContext<F>(
            now: now, source: source, sequence: sequence, settings: settings, random: counters.random,
            firstTimerID: counters.nextTimerID, sender: sender, participant: participant)
        F.apply(event, to: &state, context: &context)
        counters.random = context.random
        counters.nextTimerID = context.nextTimerValue
        changed = changed || context.didChange
        var description = F.describe(event)
        if let sender {
            // Who sent it, by the name the contact was introduced by: the log never shows another session's id.
            let name = links[sender]?.name ?? "a contact"
            description = EventDescription(name: description.name, summary: "from=\"\(name)\" \(description.summary)")
        }
        if let participant, participant != Participant.ownerID {
            // A shared session's member, by its id (the log of a session only its owner uses reads as before).
            description = EventDescription(
                name: description.name, summary: "by=\"\(participant)\" \(description.summary)")
        }
        output.entries.append(
            LogEntry(
                seq: sequence, at: now, feature: F.key.name, event: description.name, summary: description.summary,
                source: source, causedBy: causedBy, versionAfter: version))
        guard context.asked else { return nil }
        return keep(
            asked: context, sequence: sequence, now: now, settings: settings, counters: &counters, output: &output)
    }

    /// Keeps what an event's context asked for: its timers, cancellations, requests and deliveries; its follow-ups
    /// are returned. A function of its own, called only when something was asked: the generic types it works with
    /// (the timers, the outbox) are looked up in the runtime's metadata cache on entry, which `apply` then skips.
    @inline(never)
    private mutating func keep(
        asked context: FeatureContext<F>, sequence: Int, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput
    ) -> [FollowUp]? {
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
        for delivery in context.deliveries {
            let number = (links[delivery.to]?.sent ?? 0) + 1
            links[delivery.to, default: ContactLink()].sent = number
            queue(
                PendingDelivery(
                    to: delivery.to, number: number, event: delivery.event, introduction: nil, causedBy: sequence,
                    at: now),
                output: &output)
        }
        guard !context.followUps.isEmpty else { return nil }
        return context.followUps.map { FollowUp(event: $0.event, source: $0.source, causedBy: sequence) }
    }

    /// Puts `delivery` in the outbox, and tells the shell of it once the input is durable.
    mutating func queue(_ delivery: PendingDelivery<F.Event>, output: inout StepOutput) {
        outbox.append(delivery)
        output.deliveries[delivery.to] = max(output.deliveries[delivery.to] ?? 0, delivery.number)
        output.outboxChanged = true
    }

    /// Takes the pending timer `id` out, if it is this feature's.
    mutating func removeTimer(_ id: Int) -> PendingTimer<F.Event>? {
        timers.remove(id)
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
