import Foundation

/// What a session value read from outside is held to: the bounds a live session's own counters and times keep.
struct ValueBounds {
    /// The session's sequence number: no step, cause or version change comes after it.
    let sequence: Int
    /// The number the session's next timer or request gets: every pending one has a lower number.
    let nextTimerID: Int
    /// When anything of the session may have happened: from its creation (less the clock skew allowed) to the
    /// import (plus the skew).
    let times: ClosedRange<Date>
    /// When a pending timer may fall due: up to ``SessionCore/maxTimerHorizon`` after the import.
    let dues: ClosedRange<Date>
}

extension FeatureSlot {
    /// What is wrong with this slot, read from outside, naming the field; nil when a live session could hold it:
    /// its version and last change within the session's counters, its state and every pending timer's event
    /// accepted by the feature (``Feature/validate(state:)``, ``Feature/validate(event:)``,
    /// ``Feature/validate(request:)``), each pending timer
    /// and request numbered below the next number and caused by a step that happened, each timer due in bounds.
    func problem(within bounds: ValueBounds) -> ValueRejection? {
        guard (1...SessionCore.maxCounter).contains(version) else {
            return ValueRejection(field: "version", reason: "must be 1 to \(SessionCore.maxCounter)")
        }
        guard (0...bounds.sequence).contains(lastChangeSequence) else {
            return ValueRejection(
                field: "lastChangeSequence", reason: "must be 0 to the session's sequence (\(bounds.sequence))")
        }
        do throws(ValueRejection) {
            try F.validate(state: state)
        } catch {
            return error.inside("state")
        }
        for (id, timer) in timers.byID.sorted(by: { $0.key < $1.key }) {
            let field = "timers[\(id)]"
            guard timer.id == id, (1..<bounds.nextTimerID).contains(id) else {
                return ValueRejection(
                    field: field, reason: "must be numbered below the session's next number (\(bounds.nextTimerID))")
            }
            guard (1...bounds.sequence).contains(timer.causedBy) else {
                return ValueRejection(
                    field: "\(field).causedBy", reason: "must be a step of the session (1 to \(bounds.sequence))")
            }
            guard bounds.dues.contains(timer.dueAt) else {
                return ValueRejection(
                    field: "\(field).dueAt",
                    reason:
                        "must fall between the session's creation and \(SessionCore.maxTimerHorizonDays) days after the import"
                )
            }
            do throws(ValueRejection) {
                try F.validate(event: timer.event)
            } catch {
                return error.inside("\(field).event")
            }
        }
        var seen = Set<Int>()
        for (index, work) in requests.enumerated() {
            guard (1..<bounds.nextTimerID).contains(work.id), seen.insert(work.id).inserted else {
                return ValueRejection(
                    field: "requests[\(index)].id",
                    reason: "must be unique and below the session's next number (\(bounds.nextTimerID))")
            }
            guard (1...bounds.sequence).contains(work.causedBy) else {
                return ValueRejection(
                    field: "requests[\(index)].causedBy",
                    reason: "must be a step of the session (1 to \(bounds.sequence))")
            }
            do throws(ValueRejection) {
                try F.validate(request: work.request)
            } catch {
                return error.inside("requests[\(index)].request")
            }
        }
        return deliveryProblem(within: bounds)
    }

    /// What is wrong with the slot's deliveries and contact numbers, read from outside: each pending delivery to
    /// a well-formed address, numbered above the one before it to that address and at most the last number given it,
    /// caused by a step that happened, made within the session's lifetime, an event the feature accepts or an
    /// introduction with a name; each address's numbers within the counters' bound.
    private func deliveryProblem(within bounds: ValueBounds) -> ValueRejection? {
        for (address, link) in links.sorted(by: { $0.key < $1.key }) {
            guard ContactAddress.isValid(address.rawValue) else {
                return ValueRejection(
                    field: "links",
                    reason: "must be keyed by addresses of 1 to \(ContactAddress.maxBytes) visible ASCII characters")
            }
            guard (0...SessionCore.maxCounter).contains(link.sent), (0...SessionCore.maxCounter).contains(link.received)
            else {
                return ValueRejection(field: "links[\(address)]", reason: "must count 0 to \(SessionCore.maxCounter)")
            }
            if let name = link.name, !Contact.isValidName(name) {
                return ValueRejection(
                    field: "links[\(address)].name",
                    reason: "must be a name of 1 to \(Contact.maxNameCharacters) characters")
            }
        }
        var last: [ContactAddress: Int] = [:]
        for (index, delivery) in outbox.enumerated() {
            let field = "outbox[\(index)]"
            guard let sent = links[delivery.to]?.sent, (last[delivery.to] ?? 0) < delivery.number,
                delivery.number <= sent
            else {
                return ValueRejection(
                    field: "\(field).number",
                    reason: "must follow the one before to its address, up to the last number given it")
            }
            last[delivery.to] = delivery.number
            guard (1...bounds.sequence).contains(delivery.causedBy) else {
                return ValueRejection(
                    field: "\(field).causedBy", reason: "must be a step of the session (1 to \(bounds.sequence))")
            }
            guard bounds.times.contains(delivery.at) else {
                return ValueRejection(field: "\(field).at", reason: "must fall within the session's lifetime")
            }
            switch (delivery.event, delivery.introduction) {
            case (let event?, nil):
                do throws(ValueRejection) {
                    try F.validate(event: event)
                } catch {
                    return error.inside("\(field).event")
                }
            case (nil, let name?) where Contact.isValidName(name):
                break
            default:
                return ValueRejection(
                    field: field,
                    reason:
                        "must hold an event, or an introduction's name of 1 to \(Contact.maxNameCharacters) characters")
            }
        }
        return nil
    }

    /// What is wrong with `events` (this feature's, read from outside), naming the event; nil when the feature
    /// accepts each (``Feature/validate(event:)``).
    static func problem(events: [any Sendable]) -> ValueRejection? {
        for (index, event) in events.enumerated() {
            guard let event = event as? F.Event else {
                return ValueRejection(field: "events[\(index)]", reason: "is not an event of feature '\(F.key.name)'")
            }
            do throws(ValueRejection) {
                try F.validate(event: event)
            } catch {
                return error.inside("events[\(index)]")
            }
        }
        return nil
    }
}
