import Foundation
import ViewHostAPI

/// Applying a journal's inputs again, and writing events down for one.
extension SessionCore {
    /// Applies `input` as it was applied when it was recorded.
    /// - Parameters:
    ///   - input: The recorded input.
    ///   - observe: Told of each new version with a way to build its snapshot (nil: nobody asks), as
    ///     ``apply(_:to:source:at:observe:)`` tells it: how a past version inside a batch is rebuilt.
    /// - Returns: What changed, or nil when the input applied nothing (a timer that fired before a snapshot, a
    ///   request answered already, a submission whose events were all applied before).
    /// - Throws: ``ReplayError`` when the input does not fit this session (another session's journal, or a
    ///   feature it does not have).
    @discardableResult
    public mutating func replay(
        _ input: SessionInput, observe: ((_ feature: String, _ version: Int, _ snapshot: () -> any ViewModel) -> Void)? = nil
    ) throws(ReplayError) -> SessionStep? {
        switch input {
        case .timer(let id, let at):
            // A timer the journal names but the core does not hold fired or was cancelled before a snapshot.
            return fireTimer(id, at: at, observe: observe)
        case .answer(let feature, let at, let request, let data):
            let events = try decodedEvents(data, of: feature)
            var step: SessionStep?
            for event in events { step = applyAnswer(event, toRequest: request, at: at, observe: observe) ?? step }
            return step
        case .events(let feature, let at, let source, let data):
            let events = try decodedEvents(data, of: feature)
            let index = try slot(of: feature)
            do throws(SessionRefusal) {
                return try applyEvents(events, slot: index, source: source, at: at, observe: observe)
            } catch {
                throw .refused("\(error)")
            }
        case .submission(let feature, let at, let data, let eventIDs, let key, let fingerprint):
            let events = try decodedEvents(data, of: feature)
            let claim = key.map { (key: $0, fingerprint: fingerprint ?? "") }
            let index = try slot(of: feature)
            do throws(SessionError) {
                return try submit(events, eventIDs: eventIDs, idempotency: claim, slot: index, at: at, observe: observe).step
            } catch {
                throw .refused("\(error)")
            }
        }
    }

    /// `events` of `feature`, JSON-encoded as a journal records them.
    public func encodeEvents(_ events: [any Sendable], of feature: String) throws -> Data {
        try slots[slot(of: feature)].encodeEvents(events)
    }

    /// What encodes events of `feature` as a journal records them, holding nothing of the session's value.
    func eventEncoder(of feature: String) -> (@Sendable ([any Sendable]) -> Data)? {
        slot(named: feature).map { slots[$0].eventEncoder }
    }

    private func slot(of feature: String) throws(ReplayError) -> Int {
        guard let index = slot(named: feature) else { throw .noSuchFeature(feature) }
        return index
    }

    private func decodedEvents(_ data: Data, of feature: String) throws(ReplayError) -> [any Sendable] {
        let index = try slot(of: feature)
        do {
            return try slots[index].decodeEvents(from: data, with: JSONDecoder())
        } catch {
            throw .undecodableEvents(feature: feature)
        }
    }
}
