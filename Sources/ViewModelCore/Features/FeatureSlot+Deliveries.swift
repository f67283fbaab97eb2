import Foundation

/// A slot's side of deliveries between sessions: a contact made here (``introduce(_:as:now:settings:counters:output:)``),
/// deliveries applied from a contact (``receive(from:first:introduction:events:now:settings:counters:output:)``), and
/// the receiver's word on this slot's own (``acknowledge(to:through:failure:now:settings:counters:output:)``). Each is
/// a pure function of the slot and the input, so a journal replays it.
extension FeatureSlot {
    /// Makes the contact `contact` here (this session redeemed an invitation): its link, the feature's
    /// ``Feature/introduced(to:)`` event as a step, and an introduction to the contact (naming this session
    /// `name`), delivered first of everything this session delivers to it.
    /// - Returns: Whether anything changed (false: the contact was made here before).
    mutating func introduce(
        _ contact: Contact, as name: String, now: Date, settings: SessionSettings, counters: inout SessionCounters,
        output: inout StepOutput
    ) -> Bool {
        guard links[contact.address] == nil else { return false }
        links[contact.address] = ContactLink(sent: 1, received: 0, name: contact.name)
        queue(
            PendingDelivery(
                to: contact.address, number: 1, event: nil, introduction: name, causedBy: max(1, counters.sequence),
                at: now),
            output: &output)
        if let event = F.introduced(to: contact) {
            step(
                event, source: .session, causedBy: nil, now: now, settings: settings, counters: &counters,
                output: &output,
                sender: contact.address)
        }
        return true
    }

    /// Applies deliveries from the contact this session knows as `from`, numbered from `first`: an introduction (the
    /// feature's ``Feature/introduced(to:)`` event), or `events`, each a step of its own (source `session`) unless its
    /// number was applied before, or the feature does not take it from that contact (``Feature/accepts(_:from:in:)``:
    /// then only its number is noted).
    /// - Returns: Whether any number was new (false: every one was applied before, and nothing changed).
    mutating func receive(
        from: ContactAddress, first: Int, introduction: String?, events: [F.Event], now: Date,
        settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput
    ) -> Bool {
        let received = links[from]?.received ?? 0
        if let name = introduction {
            guard first > received else { return false }
            links[from, default: ContactLink()].received = first
            links[from, default: ContactLink()].name = name
            if let event = F.introduced(to: Contact(name: name, address: from)) {
                step(
                    event, source: .session, causedBy: nil, now: now, settings: settings, counters: &counters,
                    output: &output, sender: from)
            }
            return true
        }
        guard first + events.count - 1 > received else { return false }
        for (offset, event) in events.enumerated() where first + offset > received {
            links[from, default: ContactLink()].received = first + offset
            guard F.accepts(event, from: from, in: state) else { continue }
            step(
                event, source: .session, causedBy: nil, now: now, settings: settings, counters: &counters,
                output: &output,
                sender: from)
        }
        return true
    }

    /// The receiver's word on this slot's deliveries to `to` numbered up to `through`: they arrived (nil `failure`),
    /// and leave the outbox; or they did not, and each event among them that the feature turns into an
    /// ``Feature/undelivered(_:to:because:)`` event is applied as a step (source `session`, caused by the step that
    /// delivered it).
    /// - Returns: Whether any was still pending (false: acknowledged before, and nothing changed).
    mutating func acknowledge(
        to: ContactAddress, through: Int, failure: DeliveryFailure?, now: Date, settings: SessionSettings,
        counters: inout SessionCounters, output: inout StepOutput
    ) -> Bool {
        let done = outbox.filter { $0.to == to && $0.number <= through }
        guard !done.isEmpty else { return false }
        outbox.removeAll { $0.to == to && $0.number <= through }
        if outbox.isEmpty { outbox = [] }
        output.outboxChanged = true
        guard let failure else { return true }
        for delivery in done {
            guard let event = delivery.event, let told = F.undelivered(event, to: to, because: failure) else {
                continue
            }
            step(
                told, source: .session, causedBy: delivery.causedBy, now: now, settings: settings, counters: &counters,
                output: &output)
        }
        return true
    }

    /// The pending deliveries numbered at or below `marks` (all when nil), in batches for their receivers: an
    /// introduction alone, else up to `maxEvents` events to one address in a row, in the order they were made.
    /// - Throws: ``UnstorableValue`` when an event cannot be encoded.
    func batches(upTo marks: [ContactAddress: Int]?, maxEvents: Int) throws(UnstorableValue) -> [DeliveryBatch] {
        var byAddress: [ContactAddress: [PendingDelivery<F.Event>]] = [:]
        var order: [ContactAddress] = []
        for delivery in outbox where delivery.number <= marks.map({ $0[delivery.to] ?? 0 }) ?? .max {
            if byAddress[delivery.to] == nil { order.append(delivery.to) }
            byAddress[delivery.to, default: []].append(delivery)
        }
        var batches: [DeliveryBatch] = []
        for address in order {
            var run: [PendingDelivery<F.Event>] = []
            func flush() throws(UnstorableValue) {
                guard let first = run.first else { return }
                defer { run = [] }
                do {
                    let events = try StoredEvents<F>.encoded(run.compactMap(\.event))
                    batches.append(
                        DeliveryBatch(
                            feature: F.key.name, to: address, first: first.number, count: run.count, introduction: nil,
                            events: events, at: first.at))
                } catch {
                    throw UnstorableValue(error, feature: F.key.name, in: "outbox[\(first.number)].event")
                }
            }
            for delivery in (byAddress[address] ?? []).sorted(by: { $0.number < $1.number }) {
                if let name = delivery.introduction {
                    try flush()
                    batches.append(
                        DeliveryBatch(
                            feature: F.key.name, to: address, first: delivery.number, count: 1, introduction: name,
                            events: Data("[]".utf8), at: delivery.at))
                    continue
                }
                // A run is numbers in a row (a gap would let the receiver skip one).
                if let last = run.last, last.number + 1 != delivery.number || run.count >= maxEvents { try flush() }
                run.append(delivery)
            }
            try flush()
        }
        return batches
    }

    /// The highest number pending per address.
    var deliveryMarks: [ContactAddress: Int] {
        outbox.reduce(into: [:]) { marks, delivery in marks[delivery.to] = max(marks[delivery.to] ?? 0, delivery.number)
        }
    }

    /// When the earliest pending delivery was decided.
    var earliestDeliveryAt: Date? { outbox.lazy.map(\.at).min() }
}
