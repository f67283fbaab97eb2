import Foundation

/// Holding a session value read from outside (a journal export's header) to what a live session could be.
extension SessionCore {
    /// The largest sequence number, version or timer number a session value read from outside may hold: 2⁵³, the
    /// largest integer a JSON number keeps exactly. Counting on from there by one a step cannot overflow.
    public static let maxCounter = 1 << 53
    /// How far after an import a pending timer of the imported value may fall due, in days.
    public static let maxTimerHorizonDays = 366

    /// What is wrong with this value, read from outside, naming the field; nil when a live session could be it.
    ///
    /// Its settings are within the ranges a server takes (``SessionSettings/problem``); its counters within
    /// ``maxCounter``; its log a ring of its own capacity with entries numbered up to its sequence; its
    /// idempotency keys bounded; each feature's state and pending events accepted by the feature
    /// (``Feature/validate(state:)``, ``Feature/validate(event:)``); every time within `times`, and every pending
    /// timer due before ``maxTimerHorizonDays`` after its end.
    /// - Parameter times: When anything of the session may have happened: from its creation to the import, each
    ///   widened by the clock skew the caller allows.
    /// - Returns: The first problem found, or nil.
    public func problem(times: ClosedRange<Date>) -> ValueRejection? {
        if let problem = settings.problem { return problem.inside("settings") }
        guard (0...Self.maxCounter).contains(counters.sequence) else {
            return ValueRejection(field: "counters.sequence", reason: "must be 0 to \(Self.maxCounter)")
        }
        guard (1...Self.maxCounter).contains(counters.nextTimerID) else {
            return ValueRejection(field: "counters.nextTimerID", reason: "must be 1 to \(Self.maxCounter)")
        }
        guard Set(featureNames).count == featureNames.count else {
            return ValueRejection(field: "features", reason: "must name each feature once")
        }
        guard log.capacity == settings.logCapacity else {
            return ValueRejection(
                field: "log.capacity", reason: "must be the session's settings.logCapacity (\(settings.logCapacity))")
        }
        if let problem = log.problem(sequence: counters.sequence, features: featureNames, times: times) {
            return problem.inside("log")
        }
        let horizon = times.upperBound.addingTimeInterval(Double(Self.maxTimerHorizonDays) * 86_400)
        let bounds = ValueBounds(
            sequence: counters.sequence, nextTimerID: counters.nextTimerID, times: times,
            dues: times.lowerBound...max(times.lowerBound, horizon))
        let versions = 1...Self.maxCounter
        if let problem = idempotency.problem(versions: versions, times: times) { return problem.inside("idempotency") }
        for (index, slot) in slots.enumerated() {
            if let problem = slot.problem(within: bounds) { return problem.inside("features[\(index)].slot") }
        }
        return nil
    }

    /// What is wrong with `events` of `feature`, read from outside, naming the event; nil when the feature accepts
    /// each (``Feature/validate(event:)``), or has no such name (the replay refuses that itself).
    public func problem(events: [any Sendable], of feature: String) -> ValueRejection? {
        guard let type = slotType(of: feature) else { return nil }
        return type.problem(events: events)
    }
}
