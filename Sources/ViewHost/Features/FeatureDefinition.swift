import Foundation
import ViewHostAPI
import ViewModelCore

/// What the app needs to host one feature: its name, the event types clients may post, its state in a new
/// session, the events that start it, the runner of its outside work, and how to turn JSON event objects into its
/// events (through the wire intents of ViewHostAPI, the types the Swift client encodes).
struct FeatureDefinition: Sendable {
    let name: String
    /// The client event types, for 422 answers that list them.
    let eventTypes: [String]
    /// The feature with its state for a new session.
    let initialFeature: @Sendable () -> InitialFeature
    /// Runs the feature's requests (provider calls), if it makes any.
    let requestRunner: FeatureRequestRunner?
    /// Sends the start events (as `view` events) right after the session is made.
    let start: @Sendable (Session) -> Void
    /// Decodes every event first (so a bad one rejects the whole batch), then submits them.
    let submit: @Sendable (Session, [EventFields], _ idempotency: (key: String, fingerprint: String)?) throws(AppError)
        -> (outcome: SubmitOutcome, durable: CommitTicket?)
    /// Decodes event objects as ``submit`` does, applying nothing: the number of events (the fuzzers' entry).
    let decode: @Sendable ([EventFields]) throws(AppError) -> Int

    /// Defines a feature from its typed parts.
    /// - Parameters:
    ///   - key: The feature's key.
    ///   - intents: The feature's wire intent type (its `types` are the client event types).
    ///   - eventTypes: The client event types.
    ///   - initialState: The feature's state in a new session.
    ///   - requestRunner: Runs its requests, if it makes any.
    ///   - startEvents: Sent (as `view` events) right after the session is made.
    ///   - decode: Turns one event object of a known type into the feature's event.
    static func define<F: Feature>(
        _ key: FeatureKey<F>, eventTypes: [String], initialState: @escaping @Sendable () -> F.State,
        requestRunner: FeatureRequestRunner? = nil, startEvents: [F.Event] = [],
        decode: @escaping @Sendable (String, EventFields) throws(EventDecodingError) -> F.Event
    ) -> FeatureDefinition {
        /// Every event decoded first, so a bad one rejects the whole batch.
        @Sendable func decodeAll(_ objects: [EventFields]) throws(AppError) -> (events: [F.Event], ids: [String?]) {
            var events: [F.Event] = []
            var ids: [String?] = []
            events.reserveCapacity(objects.count)
            for object in objects {
                do throws(EventDecodingError) {
                    let type = try object.type
                    guard eventTypes.contains(type) else {
                        throw .unknownType(
                                object.path("type"), type: EventDescription.shortened(type, maxBytes: 64),
                                allowed: eventTypes)
                    }
                    events.append(try decode(type, object))
                } catch {
                    throw .invalidEvent(error)
                }
                ids.append(object.eventID)
            }
            return (events, ids)
        }
        return FeatureDefinition(
            name: key.name, eventTypes: eventTypes,
            initialFeature: { InitialFeature(key, state: initialState()) },
            requestRunner: requestRunner,
            start: { session in
                if !startEvents.isEmpty { _ = try? session.send(startEvents, to: key, source: .view) }
            },
            submit: { session, objects, idempotency throws(AppError) in
                let (events, ids) = try decodeAll(objects)
                do throws(SessionError) {
                    return try session.submit(
                        Submission(events: events, eventIDs: ids, idempotency: idempotency), to: key)
                } catch {
                    throw AppError(error, batch: objects.count > 1)
                }
            },
            decode: { objects throws(AppError) in try decodeAll(objects).events.count })
    }
}
