import Foundation
import ViewHostAPI

/// Applying a journal's inputs again, and writing events down for one.
extension SessionCore {
    /// Applies `input` as it was applied when it was recorded.
    /// - Throws: ``ReplayError`` when the input does not fit this session (another session's journal, or a
    ///   feature it does not have).
    public mutating func replay(_ input: SessionInput) throws(ReplayError) {
        let nobody: ((String, Int, () -> any ViewModel) -> Void)? = nil
        switch input {
        case .timer(let id, let at):
            // A timer the journal names but the core does not hold fired or was cancelled before a snapshot.
            _ = fireTimer(id, at: at)
        case .answer(let feature, let at, let request, let data):
            let events = try decodedEvents(data, of: feature)
            for event in events { _ = applyAnswer(event, toRequest: request, at: at) }
        case .events(let feature, let at, let source, let data):
            let events = try decodedEvents(data, of: feature)
            let index = try slot(of: feature)
            do throws(SessionRefusal) {
                _ = try applyEvents(events, slot: index, source: source, at: at, observe: nobody)
            } catch {
                throw .refused("\(error)")
            }
        case .submission(let feature, let at, let data, let eventIDs, let key, let fingerprint):
            let events = try decodedEvents(data, of: feature)
            let claim = key.map { (key: $0, fingerprint: fingerprint ?? "") }
            let index = try slot(of: feature)
            do throws(SessionError) {
                _ = try submit(events, eventIDs: eventIDs, idempotency: claim, slot: index, at: at, observe: nobody)
            } catch {
                throw .refused("\(error)")
            }
        }
    }

    /// `events` of `feature`, JSON-encoded as a journal records them.
    public func encodeEvents(_ events: [any Sendable], of feature: String) throws -> Data {
        try slots[slot(of: feature)].encodeEvents(events)
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
