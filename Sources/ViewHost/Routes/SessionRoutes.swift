import Foundation
import HTTPCore
import ViewHostJSON
import ViewModelCore

/// `POST /v1/sessions`, `GET /v1/sessions/{id}`, `DELETE /v1/sessions/{id}` (API.md "Sessions"); the cookies a
/// browser gets for each session are ``SessionCookie``'s.
enum SessionRoutes {
    static func register<C: Clock>(
        on router: inout MeteredRouter, registry: SessionRegistry, limits: RequestRateLimits<C>
    ) where C.Duration == Duration {
        let resolver = SessionResolver(registry: registry)
        router.on(.post, "/v1/sessions") { request, context in
            try limits.admitSessionCreation(from: context.clientAddress)
            if SessionImport.isImport(request) { return SessionImport.handle(request, registry: registry) }
            let options = try SessionOptions.parse(request, catalog: registry.features.names)
            let created = try registry.create(
                features: options.features, timeZone: options.timeZone, locale: options.locale)
            // 201 only once the session (and its start) is stored: a token given out must survive a crash.
            guard let durable = created.durable else { return .response(createdResponse(created, registry: registry)) }
            return .deferred {
                do throws(SessionError) {
                    try await durable.value()
                    try await created.session.committed()
                } catch {
                    registry.store.drop(created.session)
                    throw AppError.storageUnavailable
                }
                return createdResponse(created, registry: registry)
            }
        }

        // A member sees the features it was invited to, no others.
        router.on(.get, "/v1/sessions/:id", session: resolver, members: .allowed) { request, context, session, member in
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("createdAt")
            writer.string(session.createdAt.formatted(.iso8601))
            writer.key("expiresAt")
            writer.string(registry.expiry(of: session).formatted(.iso8601))
            writer.key("features")
            writer.beginObject()
            let versions = session.versions
            for name in session.featureNames.sorted() where member?.features.contains(name) ?? true {
                writer.key(name)
                writer.beginObject()
                writer.key("version")
                writer.integer(versions[name] ?? 0)
                writer.endObject()
            }
            writer.endObject()
            writer.key("id")
            writer.string(session.id.rawValue)
            writer.endObject()
            return .response(
                HTTPResponse(
                    contentType: "application/json", bytes: writer.bytes, headers: [.cacheControl: "private, no-cache"])
            )
        }

        router.on(.delete, "/v1/sessions/:id", session: resolver) { request, context, session in
            // The session's cookies go with it; the single cookie of earlier releases only when it stood for it.
            let id = session.id.rawValue
            let legacy =
                SessionRegistry.bearer(of: request) == nil
                && SessionCookie.token(in: request, session: id)?.legacy == true
            var headers = HTTPHeaders()
            for cookie in SessionCookie.cleared(id: id, legacy: legacy) { headers.add(.setCookie, cookie) }
            let removed = HTTPResponse(status: .noContent, headers: headers)
            guard let durable = try registry.delete(session) else { return .response(removed) }
            return .deferred {
                do throws(SessionError) {
                    try await durable.value()
                } catch {
                    throw AppError.storageUnavailable
                }
                return removed
            }
        }
    }

    /// `201` with the session's id, its secret (given out this once), its expiry and its links.
    static func createdResponse(_ created: SessionRegistry.Created, registry: SessionRegistry) -> HTTPResponse {
        let session = created.session
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("expiresAt")
        writer.string(registry.expiry(of: session).formatted(.iso8601))
        writer.key("id")
        writer.string(session.id.rawValue)
        writer.key("links")
        writer.beginObject()
        let base = "/v1/sessions/\(session.id.rawValue)"
        for name in (session.featureNames + ["log", "stream"]).sorted() {
            writer.key(name)
            writer.string("\(base)/\(name)")
        }
        writer.endObject()
        writer.key("token")
        writer.string(created.secret.rawValue)
        writer.endObject()
        var headers: HTTPHeaders = [.location: base, .cacheControl: "no-store"]
        // A cookie pair per session (``SessionCookie``): each tab of a browser keeps its own session.
        for cookie in SessionCookie.created(id: session.id.rawValue, token: created.secret.rawValue) {
            headers.add(.setCookie, cookie)
        }
        return HTTPResponse(status: .created, contentType: "application/json", bytes: writer.bytes, headers: headers)
    }
}

/// The optional body of `POST /v1/sessions`: `{"features":[…],"timeZone":"Europe/Tallinn","locale":"en_US"}`.
struct SessionOptions {
    var features: [String]?
    var timeZone = TimeZone.gmt
    var locale = "en_US"

    static func parse(_ request: HTTPRequest, catalog: [String]) throws(AppError) -> SessionOptions {
        var options = SessionOptions()
        guard !request.body.isEmpty else { return options }
        guard case .object(let members) = try RequestBody.json(request) else {
            throw .invalidField("body", reason: "must be a JSON object", status: .unprocessableContent)
        }
        for (name, value) in members {
            switch name {
            case "features":
                guard case .array(let items) = value, !items.isEmpty else {
                    throw .invalidField(
                        "features", reason: "must be a non-empty array of feature names", status: .unprocessableContent)
                }
                var names: [String] = []
                for (index, item) in items.enumerated() {
                    guard case .string(let feature) = item, catalog.contains(feature) else {
                        throw .invalidField(
                            "features[\(index)]", reason: "must be one of \(catalog.joined(separator: ", "))",
                            status: .unprocessableContent)
                    }
                    if !names.contains(feature) { names.append(feature) }
                }
                options.features = names
            case "timeZone":
                guard case .string(let identifier) = value, let zone = timeZone(identifier) else {
                    throw .invalidField(
                        "timeZone", reason: "must be an IANA time zone such as Europe/Tallinn",
                        status: .unprocessableContent)
                }
                options.timeZone = zone
            case "locale":
                guard case .string(let locale) = value, SessionSettings.isLocale(locale) else {
                    throw .invalidField(
                        "locale", reason: "must be a locale identifier such as en_US or zh-Hans",
                        status: .unprocessableContent)
                }
                options.locale = locale
            default:
                throw .invalidField(
                    name, reason: "is not a session option (features, timeZone, locale)", status: .unprocessableContent)
            }
        }
        return options
    }

    /// The zone named by `identifier` if it is one of ``timeZoneIdentifiers``; nil for anything else, checked by
    /// length first so a long string costs nothing.
    static func timeZone(_ identifier: String) -> TimeZone? {
        guard (1...SessionSettings.maxTimeZoneBytes).contains(identifier.utf8.count),
            timeZoneIdentifiers.contains(identifier)
        else { return nil }
        return TimeZone(identifier: identifier)
    }

    /// The IANA zones a session may name: those this machine's time zone database lists, plus `UTC` and `GMT`.
    /// The OpenAPI document's `timeZone` enum is this set, so it states exactly what is taken.
    static let timeZoneIdentifiers: Set<String> = {
        Set(
            (TimeZone.knownTimeZoneIdentifiers + ["UTC", "GMT"]).filter { identifier in
                identifier.utf8.count <= SessionSettings.maxTimeZoneBytes && TimeZone(identifier: identifier) != nil
            })
    }()
}
