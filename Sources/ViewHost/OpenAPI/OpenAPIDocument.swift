import Foundation
import ViewHostAPI
import ViewHostJSON
import ViewModelCore

/// `GET /openapi.json`: the OpenAPI 3.1 description of every route, made once at start from the features the app
/// serves. The routes of the library itself (health, sessions, the stream, the log, the page) come from
/// `Resources/openapi-base.json`, which names no feature (embedded at build time with SwiftPM's `embedInCode`).
/// Each feature adds, from its own types and nothing else:
/// - `GET /v1/sessions/{id}/{feature}`, its snapshot's schema read off the snapshot type's `Decodable` (and its first
///   snapshot, as an example for the values the type takes) by ``SchemaProbe``;
/// - `POST /v1/sessions/{id}/{feature}/events`, one schema per event type from the intent's `Decodable` (required
///   and optional fields, limits, patterns), joined by a `type` discriminator;
/// - its name in the lists of features (session options, the stream's filter and event names).
///
/// The time-zone enum is the zones this machine's database has, exactly the ones `POST /v1/sessions` takes
/// (``SessionOptions/timeZoneIdentifiers``); the client's modules are those ``WebAssets`` serves. `OpenAPIHTTPTests`
/// checks that every operation is routed.
enum OpenAPIDocument {
    /// The document for `features`.
    static func json(features: HostedFeatures) -> String {
        guard
            var document = try? JSONSerialization.jsonObject(with: Data(PackageResources.openapi_base_json))
                as? [String: Any],
            var templates = document.removeValue(forKey: "x-feature-templates") as? [String: Any],
            var paths = document["paths"] as? [String: Any], var components = document["components"] as? [String: Any],
            var schemas = components["schemas"] as? [String: Any]
        else { preconditionFailure("Resources/openapi-base.json is not the document it was built from") }
        // The release the document describes: this build's, as `/healthz` and `--version` say.
        if var info = document["info"] as? [String: Any] {
            info["version"] = ViewHostVersion.current
            document["info"] = info
        }
        let snapshotTemplate = templates.removeValue(forKey: "snapshot") ?? [:]
        let eventsTemplate = templates.removeValue(forKey: "events") ?? [:]
        for definition in features.definitions {
            let name = definition.name
            let typeName = Self.typeName(name)
            let snapshotSchema = "\(typeName)Snapshot"
            let eventSchema = "\(typeName)Event"
            schemas[snapshotSchema] = snapshot(definition)
            for (type, schema) in events(definition) { schemas["\(typeName)\(Self.typeName(type))Event"] = schema }
            schemas[eventSchema] = eventUnion(definition, typeName: typeName)
            paths["/v1/sessions/{id}/\(name)"] = filled(
                snapshotTemplate, feature: name, snapshot: snapshotSchema, event: eventSchema)
            paths["/v1/sessions/{id}/\(name)/events"] = filled(
                eventsTemplate, feature: name, snapshot: snapshotSchema, event: eventSchema)
        }
        // The app routes invitations of a purpose only when a feature is made for it, and none when no feature is
        // (ViewHost.swift): the document names what is routed, and each `oneOf` keeps the schemas that remain.
        let takesContacts = features.definitions.contains(where: \.takesContacts)
        let shares = features.definitions.contains(where: \.isShareable)
        var removed: Set<String> = []
        if !takesContacts {
            paths.removeValue(forKey: "/v1/sessions/{id}/contacts")
            removed.formUnion(["ContactInvitationRequest", "Invitation", "CreatedInvitation"])
        }
        if !shares {
            for path in Self.participantPaths { paths.removeValue(forKey: path) }
            // Without participants nobody is a member, so the owner's routes refuse no one with 403.
            for (path, method) in Self.ownerOnlyOperations {
                paths[path] = Self.removingResponse("403", of: method, from: paths[path])
            }
            removed.formUnion(
                [
                    "JoinInvitationRequest", "JoinInvitation", "CreatedJoinInvitation", "ParticipantJoined",
                    "Participants",
                ])
        }
        if !takesContacts && !shares {
            for path in Self.contactPaths { paths.removeValue(forKey: path) }
        }
        for schema in removed { schemas.removeValue(forKey: schema) }
        components["schemas"] = Self.pruned(schemas, removing: removed)
        document["components"] = components
        document["paths"] = Self.pruned(paths, removing: removed)
        let text = serialized(document)
        let names = features.names.map { "\"\($0)\"" }.joined(separator: ", ")
        let contactFeatures = features.definitions.filter(\.takesContacts).map { "\"\($0.name)\"" }
            .joined(separator: ", ")
        let sharedFeatures = features.definitions.filter(\.isShareable).map { "\"\($0.name)\"" }
            .joined(separator: ", ")
        let zones = SessionOptions.timeZoneIdentifiers.sorted().map { "\"\($0)\"" }.joined(separator: ",")
        // The TypeScript client's modules the server serves under /client/ (``WebAssets``).
        let modules = WebAssets.modules.keys.filter { $0.hasPrefix("/client/") }.sorted()
            .map { "\"\($0.dropFirst("/client/".count))\"" }.joined(separator: ", ")
        return text.replacingOccurrences(of: "\"__FEATURES__\"", with: names)
            .replacingOccurrences(of: "\"__CONTACT_FEATURES__\"", with: contactFeatures)
            .replacingOccurrences(of: "\"__SHARED_FEATURES__\"", with: sharedFeatures)
            .replacingOccurrences(of: "\"__TIME_ZONES__\"", with: zones)
            .replacingOccurrences(of: "\"__CLIENT_MODULES__\"", with: modules)
    }

    /// The paths of invitations and contacts, routed only when a feature takes contacts (the invitations' also when
    /// one can be shared).
    static let contactPaths = [
        "/v1/sessions/{id}/invitations", "/v1/sessions/{id}/invitations/{invitationId}", "/v1/sessions/{id}/contacts",
    ]

    /// The paths of joining and participants, routed only when a feature can be shared.
    static let participantPaths = [
        "/v1/invitations/{code}", "/v1/sessions/{id}/participants", "/v1/sessions/{id}/participants/{participant}",
    ]

    /// The operations a member of a shared session is refused (`403`) besides the invitations': the owner's alone.
    static let ownerOnlyOperations = [
        ("/v1/sessions/{id}", "delete"), ("/v1/sessions/{id}/contacts", "post"),
    ]

    /// The path item `item` without the response `status` of its operation `method`.
    static func removingResponse(_ status: String, of method: String, from item: Any?) -> Any? {
        guard var item = item as? [String: Any], var operation = item[method] as? [String: Any],
            var responses = operation["responses"] as? [String: Any]
        else { return item }
        responses.removeValue(forKey: status)
        operation["responses"] = responses
        item[method] = operation
        return item
    }

    /// `node` with each `oneOf` of references losing those to `removed` schemas (one that keeps a single reference
    /// becomes it).
    static func pruned<Node>(_ node: Node, removing removed: Set<String>) -> Node {
        guard !removed.isEmpty else { return node }
        func prune(_ value: Any) -> Any {
            if let array = value as? [Any] { return array.map(prune) }
            guard var object = value as? [String: Any] else { return value }
            if let choices = object["oneOf"] as? [[String: Any]] {
                let kept = choices.filter { choice in
                    guard let reference = choice["$ref"] as? String else { return true }
                    return !removed.contains(String(reference.split(separator: "/").last ?? ""))
                }
                if kept.count == 1, object.count == 1, let only = kept.first { return only }
                object["oneOf"] = kept
            }
            for (key, member) in object where key != "oneOf" { object[key] = prune(member) }
            return object
        }
        return prune(node) as? Node ?? node
    }

    /// The feature's snapshot: the generic envelope and the snapshot type's own members.
    private static func snapshot(_ definition: FeatureDefinition) -> [String: Any] {
        let example = definition.exampleSnapshot
        let node = definition.probeSnapshot(example: example) ?? example.map(SchemaNode.inferred(from:))
        var schema: [String: Any] = ["allOf": [["$ref": "#/components/schemas/Snapshot"], node?.json() ?? [:]]]
        schema["description"] = "The \(definition.name) snapshot; its members follow from the feature's snapshot type."
        return schema
    }

    /// One schema per event type, from the intent's `Decodable`.
    private static func events(_ definition: FeatureDefinition) -> [(String, [String: Any])] {
        definition.eventTypes.map { type in
            guard let node = definition.probeIntent(type: type) else {
                // An intent that cannot be probed is still described: its type and any fields.
                return (type, ["type": "object", "required": ["type"], "properties": ["type": ["const": type]]])
            }
            node.required.insert("type")
            var schema = node.json(closed: true)
            var properties = schema["properties"] as? [String: Any] ?? [:]
            properties["type"] = ["const": type]
            properties["id"] = ["$ref": "#/components/schemas/EventID"]
            schema["properties"] = properties
            schema["type"] = "object"
            return (type, schema)
        }
    }

    /// Any of the feature's events, by its `type`.
    private static func eventUnion(_ definition: FeatureDefinition, typeName: String) -> [String: Any] {
        let references = definition.eventTypes.map { "#/components/schemas/\(typeName)\(Self.typeName($0))Event" }
        var schema: [String: Any] = [
            "description":
                "One \(definition.name) event, discriminated by type; an unknown type gets 422 listing the allowed types."
        ]
        guard !references.isEmpty else {
            schema["not"] = [:]
            return schema
        }
        schema["oneOf"] = references.map { ["$ref": $0] }
        schema["discriminator"] = [
            "propertyName": "type",
            "mapping": Dictionary(uniqueKeysWithValues: zip(definition.eventTypes, references)),
        ]
        return schema
    }

    /// A path template with the feature's name and schemas in place of its placeholders.
    private static func filled(_ template: Any, feature: String, snapshot: String, event: String) -> Any {
        switch template {
        case let text as String:
            return text.replacingOccurrences(of: "__FEATURE__", with: feature)
                .replacingOccurrences(of: "__SNAPSHOT_SCHEMA__", with: "#/components/schemas/\(snapshot)")
                .replacingOccurrences(of: "__EVENT_SCHEMA__", with: "#/components/schemas/\(event)")
        case let dictionary as [String: Any]:
            return dictionary.mapValues { filled($0, feature: feature, snapshot: snapshot, event: event) }
        case let array as [Any]:
            return array.map { filled($0, feature: feature, snapshot: snapshot, event: event) }
        default:
            return template
        }
    }

    /// `chat` → `Chat`, `shopping-list` → `ShoppingList`: a schema name's part.
    static func typeName(_ name: String) -> String {
        name.split(whereSeparator: { $0 == "-" || $0 == "_" })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private static func serialized(_ document: [String: Any]) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
        else { preconditionFailure("the OpenAPI document does not serialize") }
        return String(decoding: data, as: UTF8.self)
    }
}

extension FeatureDefinition {
    /// The feature's first snapshot (a new session's, in UTC), as JSON: the example the probe walks.
    var exampleSnapshot: JSONValue? {
        let encoded = SnapshotEncoder.encode(
            feature: name, version: 1, viewModel: firstSnapshot(SessionSettings()), sessionID: SessionID("example"))
        return try? JSONParser.parse(encoded.body)
    }

    /// The snapshot type's schema, probed.
    func probeSnapshot(example: JSONValue?) -> SchemaNode? {
        open(snapshotType, example: example)
    }

    /// The schema of the intent of event type `type`, probed.
    func probeIntent(type: String) -> SchemaNode? {
        SchemaProbe(typeOverride: type).intentSchema(of: intentType)
    }

    private func open<S: FeatureSnapshot>(_ type: S.Type, example: JSONValue?) -> SchemaNode? {
        SchemaProbe().schema(of: type, example: example)
    }
}

extension SchemaProbe {
    /// The schema of an intent type.
    func intentSchema(of type: any FeatureIntent.Type) -> SchemaNode? {
        open(type)
    }

    private func open<I: FeatureIntent>(_ type: I.Type) -> SchemaNode? {
        schema(of: I.self, example: nil)
    }
}
