import Foundation
import ViewHostAPI
import ViewHostJSON

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
        _ input: SessionInput,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)? = nil
    ) throws(ReplayError) -> SessionStep? {
        try replay(input, decoded: nil, observe: observe)
    }

    /// Applies `input` as ``replay(_:observe:)`` does, with its events decoded ahead (``decodedAhead(_:)``, on
    /// another thread while the record before was replayed): they are used only when they were decoded from the
    /// input's own feature and bytes, else the input's events are decoded here.
    @discardableResult
    public mutating func replay(
        _ input: SessionInput, decoded: DecodedEvents?,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)? = nil
    ) throws(ReplayError) -> SessionStep? {
        func read(_ data: Data, of feature: String) throws(ReplayError) -> [any Sendable] {
            if let decoded, decoded.feature == feature, decoded.data == data { return try decoded.events.get() }
            return try decodedEvents(data, of: feature)
        }
        switch input {
        case .timer(let id, let at):
            // A timer the journal names but the core does not hold fired or was cancelled before a snapshot.
            return fireTimer(id, at: at, observe: observe)
        case .answer(let feature, let at, let request, let data):
            let events = try read(data, of: feature)
            var step: SessionStep?
            for event in events { step = applyAnswer(event, toRequest: request, at: at, observe: observe) ?? step }
            return step
        case .events(let feature, let at, let source, let data):
            let events = try read(data, of: feature)
            let index = try slot(of: feature)
            do throws(SessionRefusal) {
                return try applyEvents(events, slot: index, source: source, at: at, observe: observe)
            } catch {
                throw .refused("\(error)")
            }
        case .submission(let feature, let at, let data, let eventIDs, let key, let fingerprint, let participant):
            let events = try read(data, of: feature)
            let claim = key.map { (key: $0, fingerprint: fingerprint ?? "") }
            let index = try slot(of: feature)
            do throws(SessionError) {
                return try submit(
                    events, eventIDs: eventIDs, idempotency: claim, participant: participant, slot: index, at: at,
                    observe: observe
                ).step
            } catch {
                throw .refused("\(error)")
            }
        case .delivery(let feature, let at, let from, let number, let introduction, let data):
            return try replayDelivery(
                IncomingDelivery(feature: feature, from: from, first: number, introduction: introduction, events: data),
                at: at, decoded: decoded, observe: observe)
        case .introduction(let feature, let at, let contact, let name, let introducing):
            do throws(SessionRefusal) {
                return try introduce(
                    Contact(name: name, address: contact), in: feature, as: introducing, at: at, observe: observe)
            } catch {
                throw .noSuchFeature(feature)
            }
        case .acknowledgement(let feature, let at, let to, let through, let failure):
            _ = try slot(of: feature)
            return acknowledge(feature, to: to, through: through, failure: failure, at: at, observe: observe)
        case .participation(let at, let kind, let id):
            participate(kind, id: id, at: at)
            return nil
        }
    }

    /// `events` of `feature`, JSON-encoded as a journal records them.
    public func encodeEvents(_ events: [any Sendable], of feature: String) throws -> Data {
        try slots[slot(of: feature)].encodeEvents(events)
    }

    /// `data`, events of `feature` as a journal records them (of any schema version the feature reads), as this build
    /// records them: migrated to the feature's schema version and encoded again; nil when they do not decode. A
    /// pending timer's event, which the session holds at the current version, is compared with a record of an
    /// earlier version so.
    public func currentEvents(_ data: Data, of feature: String) -> Data? {
        guard let events = try? decodedEvents(data, of: feature) else { return nil }
        return try? encodeEvents(events, of: feature)
    }

    /// The slot type of `feature`, which encodes its events as a journal records them (`AnyFeatureSlot.encodedEvents(_:)`)
    /// holding nothing of the session's value.
    func slotType(of feature: String) -> (any AnyFeatureSlot.Type)? {
        slot(named: feature).map { type(of: slots[$0]) }
    }

    private func slot(of feature: String) throws(ReplayError) -> Int {
        guard let index = slot(named: feature) else { throw .noSuchFeature(feature) }
        return index
    }

    /// The events of `input` decoded as ``replay(_:decoded:observe:)`` would decode them (nil for a timer, whose
    /// event the session holds, and for inputs that carry no events), for a replay that decodes the next records on another thread while it applies
    /// this one. Decoding reads nothing of the session's value but its features' types.
    public func decodedAhead(_ input: SessionInput) -> DecodedEvents? {
        switch input {
        case .timer, .introduction, .acknowledgement, .participation, .delivery(_, _, _, _, .some, _): return nil
        case .submission(let feature, _, let data, _, _, _, _), .events(let feature, _, _, let data),
            .answer(let feature, _, _, let data),
            .delivery(let feature, _, _, _, nil, let data):
            return decodedAhead(data, of: feature)
        }
    }

    /// `data`, events of `feature` as a journal records them, decoded as ``decodedAhead(_:)`` decodes an input's.
    /// - Parameters:
    ///   - data: The events as a journal records them.
    ///   - parsed: `data` as `JSONParser` reads it, when the caller has read it already (nil: read here).
    ///   - feature: The feature whose events they are.
    /// - Returns: The events decoded, or why they do not decode.
    public func decodedAhead(_ data: Data, parsed: JSONValue? = nil, of feature: String) -> DecodedEvents {
        DecodedEvents(
            feature: feature, data: data,
            events: Result { () throws(ReplayError) in try decodedEvents(data, parsed: parsed, of: feature) })
    }

    private func decodedEvents(_ data: Data, parsed: JSONValue? = nil, of feature: String) throws(ReplayError)
        -> [any Sendable]
    {
        let index = try slot(of: feature)
        do {
            return try slots[index].decodeEvents(from: data, parsed: parsed, with: JSONDecoder())
        } catch let error as StoredFeatureError {
            throw .undecodable(error)
        } catch {
            throw .undecodableEvents(feature: feature)
        }
    }
}

/// A journal input's events decoded ahead of its replay, with the feature and bytes they were decoded from
/// (``SessionCore/decodedAhead(_:)``): what the replay would have decoded, or why it could not.
public struct DecodedEvents: Sendable {
    let feature: String
    let data: Data
    let events: Result<[any Sendable], ReplayError>
}
