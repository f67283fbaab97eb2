import Foundation
import ViewHostAPI

/// A client's request: its events applied all or nothing, its idempotency key answered as the IETF draft says, and
/// events whose own id was applied before skipped. In the core, so a journal replays it exactly.
extension SessionCore {
    /// Applies `submission` to `key`'s feature.
    /// - Returns: What became of it, and the step when events were applied (nil for a replayed key or when every
    ///   event's id was applied before and no key is recorded).
    /// - Throws: ``SessionError`` when the state refuses an event, the key came with another request, or there is
    ///   no such feature.
    public mutating func submit<F: Feature>(
        _ submission: Submission<F.Event>, to key: FeatureKey<F>, at now: Date,
        observe: ((_ feature: String, _ version: Int, _ snapshot: () -> any ViewModel) -> Void)? = nil
    ) throws(SessionError) -> (outcome: SubmitOutcome, step: SessionStep?, changed: Bool) {
        guard let index = slot(named: key.name) else { throw .noSuchFeature(key.name) }
        return try submit(
            submission.events, eventIDs: submission.eventIDs, idempotency: submission.idempotency, slot: index, at: now,
            observe: observe)
    }

    /// The erased form, for ``submit(_:to:at:observe:)`` and replays.
    mutating func submit<Event: Sendable>(
        _ events: [Event], eventIDs: [String?], idempotency: (key: String, fingerprint: String)?, slot index: Int,
        at now: Date, observe: ((_ feature: String, _ version: Int, _ snapshot: () -> any ViewModel) -> Void)?
    ) throws(SessionError) -> (outcome: SubmitOutcome, step: SessionStep?, changed: Bool) {
        if let claim = idempotency {
            switch self.idempotency.lookup(key: claim.key, fingerprint: claim.fingerprint, now: now) {
            case .new: break
            case .replay(let answer): return (.replayed(answer), nil, false)
            case .mismatch: throw .keyReused
            }
        }
        var seen = Set<String>()
        let fresh = events.indices.filter { position in
            guard position < eventIDs.count, let id = eventIDs[position] else { return true }
            return !self.idempotency.hasApplied(eventID: id) && seen.insert(id).inserted
        }
        var step: SessionStep?
        if !fresh.isEmpty {
            do throws(SessionRefusal) {
                step = try applyEvents(fresh.map { events[$0] }, slot: index, source: .client, at: now, observe: observe)
            } catch {
                switch error {
                case .noSuchFeature(let name): throw .noSuchFeature(name)
                case .refused(let refusal, let position): throw .refused(refusal, index: fresh[position])
                }
            }
        }
        for position in fresh {
            if position < eventIDs.count, let id = eventIDs[position] { self.idempotency.markApplied(eventID: id) }
        }
        let answer = IdempotencyLedger.Answer(accepted: events.count, version: step?.version ?? slots[index].version)
        if let claim = idempotency {
            self.idempotency.record(key: claim.key, fingerprint: claim.fingerprint, answer: answer, at: now)
        }
        let changed = step != nil || idempotency != nil || fresh.contains { $0 < eventIDs.count && eventIDs[$0] != nil }
        return (.applied(answer), step, changed)
    }
}
