import Foundation
import ViewHostAPI

/// A client's request: its events applied all or nothing, its idempotency key answered as the IETF draft says, and
/// events whose own id was applied before skipped. In the core, so a journal replays it exactly.
extension SessionCore {
    /// Applies `submission` to `key`'s feature.
    /// - Parameters:
    ///   - submission: The client's events, their ids and idempotency key.
    ///   - key: The feature.
    ///   - now: The instant they are applied at.
    ///   - observe: Told of every version each event makes (nil: nobody asks).
    ///   - maxPendingDeliveries: The most deliveries to contacts the session may have waiting (nil: no bound); past
    ///     it the submission is refused with ``SessionError/deliveriesWaiting(limit:)``.
    /// - Returns: What became of it, and the step when events were applied (nil for a replayed key or when every
    ///   event's id was applied before and no key is recorded).
    /// - Throws: ``SessionError`` when the state refuses an event, the key came with another request, or there is
    ///   no such feature.
    public mutating func submit<F: Feature>(
        _ submission: Submission<F.Event>, to key: FeatureKey<F>, at now: Date,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)? = nil,
        maxPendingDeliveries: Int? = nil
    ) throws(SessionError) -> (outcome: SubmitOutcome, step: SessionStep?, changed: Bool) {
        guard let index = slot(named: key.name) else { throw .noSuchFeature(key.name) }
        // Erased once here: the rest runs unspecialized, and generic code pays a metadata lookup per generic type.
        return try submit(
            submission.events.map { $0 as any Sendable }, eventIDs: submission.eventIDs,
            idempotency: submission.idempotency, participant: submission.participant, slot: index, at: now,
            observe: observe, maxPendingDeliveries: maxPendingDeliveries)
    }

    /// The erased form, for ``submit(_:to:at:observe:)`` and replays.
    mutating func submit(
        _ events: [any Sendable], eventIDs: [String?], idempotency: (key: String, fingerprint: String)?,
        participant: String? = nil, slot index: Int,
        at now: Date, observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)?,
        maxPendingDeliveries: Int? = nil
    ) throws(SessionError) -> (outcome: SubmitOutcome, step: SessionStep?, changed: Bool) {
        if let claim = idempotency {
            switch self.idempotency.lookup(key: claim.key, fingerprint: claim.fingerprint, now: now) {
            case .new: break
            case .replay(let answer): return (.replayed(answer), nil, false)
            case .mismatch: throw .keyReused
            }
        }
        // Most requests carry no event ids: then every event is fresh.
        let hasIDs = eventIDs.contains { $0 != nil }
        var fresh: [Int]?
        if hasIDs {
            var seen = Set<String>()
            fresh = events.indices.filter { position in
                guard position < eventIDs.count, let id = eventIDs[position] else { return true }
                return !self.idempotency.hasApplied(eventID: id) && seen.insert(id).inserted
            }
        }
        var step: SessionStep?
        if fresh?.isEmpty != true {
            do throws(SessionRefusal) {
                step = try applyEvents(
                    fresh.map { $0.map { events[$0] } } ?? events, slot: index, source: .client, at: now,
                    participant: participant ?? Participant.ownerID, observe: observe,
                    maxPendingDeliveries: maxPendingDeliveries)
            } catch {
                switch error {
                case .noSuchFeature(let name): throw .noSuchFeature(name)
                case .refused(let refusal, let position): throw .refused(refusal, index: fresh?[position] ?? position)
                case .tooManyDeliveries(let limit): throw .deliveriesWaiting(limit: limit)
                }
            }
        }
        for position in fresh ?? [] {
            if position < eventIDs.count, let id = eventIDs[position] { self.idempotency.markApplied(eventID: id) }
        }
        let answer = IdempotencyLedger.Answer(accepted: events.count, version: step?.version ?? slots[index].version)
        if let claim = idempotency {
            self.idempotency.record(key: claim.key, fingerprint: claim.fingerprint, answer: answer, at: now)
        }
        return (.applied(answer), step, step != nil || idempotency != nil || hasIDs)
    }
}
