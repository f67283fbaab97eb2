import Foundation
import ViewModelCore

/// What the app needs to host one feature: its name, the event types clients may post, how to make its model
/// for a new session, which events start it, and how to turn JSON event objects into its events.
struct FeatureDefinition: Sendable {
    /// Per-session settings a feature may depend on.
    struct Settings: Sendable {
        var timeZone: TimeZone
        var locale: String
    }

    let name: String
    /// The client event types, for 422 answers that list them.
    let eventTypes: [String]
    let makeFeature: @Sendable (Settings) -> SessionFeature
    let start: @Sendable (Session) -> Void
    /// Decodes every event first (so a bad one rejects the whole batch), then applies them in order.
    let apply: @Sendable (Session, [EventFields]) throws(EventDecodingError) -> SendReceipt?

    /// Defines a feature from its typed parts.
    /// - Parameters:
    ///   - key: The feature's key.
    ///   - eventTypes: The client event types.
    ///   - make: Makes the model for a new session.
    ///   - startEvents: Sent (as `view` events) right after the session is created.
    ///   - decode: Turns one event object of a known type into an event.
    static func define<Model: FeatureModel>(
        _ key: FeatureKey<Model>, eventTypes: [String], make: @escaping @Sendable (Settings) -> Model,
        startEvents: [Model.Event] = [],
        decode: @escaping @Sendable (String, EventFields) throws(EventDecodingError) -> Model.Event
    ) -> FeatureDefinition where Model.Event: Sendable {
        FeatureDefinition(
            name: key.name, eventTypes: eventTypes,
            makeFeature: { settings in SessionFeature(key, model: make(settings)) },
            start: { session in
                if !startEvents.isEmpty { session.send(startEvents, to: key, source: .view) }
            },
            apply: { session, objects throws(EventDecodingError) in
                var events: [Model.Event] = []
                events.reserveCapacity(objects.count)
                for object in objects {
                    let type = try object.type
                    guard eventTypes.contains(type) else {
                        throw .unknownType(object.path("type"), type: type, allowed: eventTypes)
                    }
                    events.append(try decode(type, object))
                }
                return session.send(events, to: key, source: .client)
            })
    }
}
