import Foundation
import HTTPCore
import ViewHostJSON
import ViewModelCore

/// `POST /v1/sessions/{id}/{feature}/events`: one event object or an array of them, routed into the feature in
/// order; `202 {"accepted":N,"version":V}`. `Idempotency-Key` (or an event's own `"id"`) makes retries safe.
enum EventRoutes {
    static let maxEventsPerRequest = 100
    static let maxKeyLength = 255

    /// An answer remembered under an `Idempotency-Key`.
    struct RememberedAnswer: Sendable {
        let body: [UInt8]
    }

    static func register(on router: inout MeteredRouter, registry: SessionRegistry, metrics: AppMetrics) {
        router.post("/v1/sessions/:id/:feature/events") { request, context in
            let session = try registry.authenticate(request, id: context.parameters["id"] ?? "")
            let feature = context.parameters["feature"] ?? ""
            guard session.featureNames.contains(feature), let definition = registry.definition(named: feature) else {
                throw AppError.featureNotFound(feature, available: session.featureNames)
            }
            let key = try idempotencyKey(request)
            let objects = try eventObjects(RequestBody.json(request))
            let body = try session.withIdempotencyLedger { ledger throws(AppError) -> [UInt8] in
                if let key, let remembered = ledger.answer(for: key, as: RememberedAnswer.self) {
                    return remembered.body
                }
                // An id seen earlier in this same batch is a repeat too (the ledger only learns ids after the
                // batch is applied, so two copies in one body used to both apply).
                var batchIDs = Set<String>()
                let fresh = objects.filter { object in
                    guard case .string(let id)? = object.value("id") else { return true }
                    return !ledger.hasApplied(eventID: id) && batchIDs.insert(id).inserted
                }
                let version: Int
                if fresh.isEmpty {
                    version = session.version(of: feature) ?? 0
                } else {
                    do {
                        guard let receipt = try definition.apply(session, fresh) else { throw AppError.sessionNotFound }
                        version = receipt.version
                    } catch let error as EventDecodingError {
                        throw .invalidEvent(error)
                    } catch {
                        throw .sessionNotFound
                    }
                }
                for object in fresh {
                    if case .string(let id)? = object.value("id") { ledger.markApplied(eventID: id) }
                }
                var writer = JSONWriter()
                writer.beginObject()
                writer.key("accepted")
                writer.integer(objects.count)
                writer.key("version")
                writer.integer(version)
                writer.endObject()
                if let key { ledger.record(RememberedAnswer(body: writer.bytes), for: key) }
                metrics.eventsAccepted(fresh.count, feature: feature)
                return writer.bytes
            }
            return HTTPResponse(
                status: .accepted, contentType: "application/json", bytes: body, headers: [.cacheControl: "no-store"])
        }
    }

    /// The `Idempotency-Key`, if sent: 1 to 255 visible ASCII characters.
    private static func idempotencyKey(_ request: HTTPRequest) throws(AppError) -> String? {
        guard let key = request.headers[.idempotencyKey] else { return nil }
        guard (1...maxKeyLength).contains(key.utf8.count), key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidField(
                "Idempotency-Key", reason: "must be 1 to 255 visible ASCII characters", status: .badRequest)
        }
        return key
    }

    /// One event object, or an array of 1 to 100 of them, each checked to be an object with an optional string
    /// `id`.
    private static func eventObjects(_ value: JSONValue) throws(AppError) -> [EventFields] {
        let items: [(JSONValue, String)]
        switch value {
        case .object:
            items = [(value, "")]
        case .array(let elements):
            guard !elements.isEmpty else { throw .invalidEvent(.emptyBatch) }
            guard elements.count <= maxEventsPerRequest else { throw .tooManyEvents(limit: maxEventsPerRequest) }
            items = elements.enumerated().map { ($1, "[\($0)].") }
        default:
            throw .invalidEvent(.notAnObject(""))
        }
        var objects: [EventFields] = []
        objects.reserveCapacity(items.count)
        for (item, prefix) in items {
            guard case .object(let members) = item else { throw .invalidEvent(.notAnObject(String(prefix.dropLast()))) }
            let fields = EventFields(members: members, pathPrefix: prefix)
            if let id = fields.value("id"), id != .null {
                guard case .string(let text) = id, (1...255).contains(text.utf8.count) else {
                    throw .invalidEvent(.wrongType(fields.path("id"), expected: "a string of 1 to 255 bytes", got: id.typeName))
                }
            }
            objects.append(fields)
        }
        return objects
    }
}
