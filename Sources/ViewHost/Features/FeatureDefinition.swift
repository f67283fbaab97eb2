import Foundation
import ViewHostAPI
import ViewModelCore

/// What the app needs to host one registered feature, with its types erased: its name, the event types clients
/// may post, its state in a new session, the events that start it, the runner of its outside work, how to turn
/// posted JSON into its events (the intent's own `Decodable`, then ``Feature/event(for:)``), its wire types (for the
/// OpenAPI document and the command-line client) and how the page draws it. A class, made once at start: a request
/// looks its feature's definition up by name, and a copy of a struct of fourteen closures and lists retained and
/// released each of them for every definition passed over.
final class FeatureDefinition: Sendable {
    let name: String
    /// The client event types, for 422 answers that list them.
    let eventTypes: [String]
    /// The feature's wire types.
    let intentType: any FeatureIntent.Type
    let snapshotType: any FeatureSnapshot.Type
    /// The feature with its state for a new session.
    let initialFeature: @Sendable (SessionSettings) -> InitialFeature
    /// Runs the feature's requests (provider calls), if it makes any.
    let requestRunner: FeatureRequestRunner?
    /// Sends the start events (as `view` events) right after the session is made.
    let start: @Sendable (Session) -> Void
    /// Decodes every event first (so a bad one rejects the whole batch), then submits them as sent by
    /// `participant` (nil: the session's owner).
    let submit:
        @Sendable (
            Session, [EventFields], _ idempotency: (key: String, fingerprint: String)?, _ participant: String?
        ) throws(AppError) -> (outcome: SubmitOutcome, durable: CommitTicket?)
    /// Decodes event objects as ``submit`` does, applying nothing: the number of events (the fuzzers' entry).
    let decode: @Sendable ([EventFields]) throws(AppError) -> Int
    /// How the page draws it; nil draws it generically.
    let page: PageRenderer?
    /// Each event type's fields, as the intent's `Decodable` reads them (nil for a type the probe could not read).
    let fieldsByType: [String: [String]]
    /// The snapshot of a new session's state (an example for documents).
    let firstSnapshot: @Sendable (SessionSettings) -> any ViewModel
    /// Whether its sessions may make contacts for it (``Feature/takesContacts``).
    let takesContacts: Bool
    /// Whether a session's members may be invited to it (``Feature/isShareable``).
    let isShareable: Bool
    /// Whether its snapshot depends on who is looking (``Feature/dependsOnViewer``: it is a
    /// ``ViewerDependentFeature``), read once here.
    let dependsOnViewer: Bool

    /// The definition of `hosting`'s feature.
    init<H: AnyFeatureHosting>(_ hosting: H) {
        typealias F = H.Hosted
        let hosting = hosting.hosting
        let key = F.key
        let eventTypes = F.Intent.types
        // Each event type's fields, read off the intent's `Decodable` once, so a member it does not have is named
        // before anything else (`txt` rather than "text is missing").
        var fields: [String: [String]] = [:]
        for type in eventTypes {
            if let node = SchemaProbe(typeOverride: type).schema(of: F.Intent.self, example: nil) {
                fields[type] = node.propertyNames.filter { $0 != "type" }
            }
        }
        let fieldsByType = fields
        self.fieldsByType = fields
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
                    let intent = try object.decode(F.Intent.self, fields: fieldsByType[type])
                    do throws(IntentRejection) {
                        events.append(try F.event(for: intent))
                    } catch {
                        throw .invalidValue(object.path(error.field), reason: error.reason)
                    }
                } catch {
                    throw .invalidEvent(error)
                }
                ids.append(object.eventID)
            }
            return (events, ids)
        }
        name = key.name
        self.eventTypes = eventTypes
        intentType = F.Intent.self
        snapshotType = F.Snapshot.self
        initialFeature = { settings in InitialFeature(key, state: hosting.initialState(settings)) }
        requestRunner = hosting.requests.map { perform in FeatureRequestRunner(key, perform: perform) }
        let startEvents = hosting.startEvents
        start = { session in
            if !startEvents.isEmpty { _ = try? session.send(startEvents, to: key, source: .view) }
        }
        submit = { session, objects, idempotency, participant throws(AppError) in
            let (events, ids) = try decodeAll(objects)
            do throws(SessionError) {
                return try session.submit(
                    Submission(events: events, eventIDs: ids, idempotency: idempotency, participant: participant),
                    to: key)
            } catch {
                throw AppError(error, batch: objects.count > 1)
            }
        }
        decode = { objects throws(AppError) in try decodeAll(objects).events.count }
        page = hosting.page
        firstSnapshot = { settings in F.snapshot(of: hosting.initialState(settings), settings: settings) }
        takesContacts = F.takesContacts
        isShareable = F.isShareable
        dependsOnViewer = F.dependsOnViewer
    }
}
