import Foundation
import HTTPCore

/// The TypeScript types of an app's features (`viewhost typescript`), written from the schemas of its OpenAPI
/// document, the same source as `/openapi.json`: per feature its snapshot (an interface whose `feature` is the
/// feature's name), one interface per intent (event type) and their union discriminated by `type`; then the map
/// `Features` that the TypeScript client takes (`new ViewHostClient<Features>(url)`), and `Action`.
///
/// What the schemas say, TypeScript says: required members plain, others optional (`?`), `["string", "null"]` as
/// `string | null`, `const` and `enum` as literal types, maps as index signatures. An object open to more members
/// (`additionalProperties: true`) lists the members it has and no index signature, so a misspelt member is a
/// compile error. Members come in the document's order (sorted by name); descriptions become doc comments.
package enum TypeScriptModule {
    /// The module for `features`.
    package static func source(features: HostedFeatures) -> String {
        source(document: OpenAPIDocument.json(features: features), features: features.names)
    }

    /// The module for the features `names` of the OpenAPI `document`.
    static func source(document: String, features names: [String]) -> String {
        guard let root = try? JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any],
            let components = root["components"] as? [String: Any],
            let schemas = components["schemas"] as? [String: Any]
        else { preconditionFailure("the OpenAPI document has no components.schemas") }
        let writer = Writer(schemas: schemas)
        var lines = [
            "// The TypeScript types of this app's features, written from the schemas of its /openapi.json by its",
            "// `typescript` command (`viewhost typescript`): do not edit; write them again when a feature's wire",
            "// types change. With the client: `new ViewHostClient<Features>(baseURL)`.",
            "",
            "/** An action a snapshot offers: `body` (its `{param}` placeholders filled) posted to `href`. */",
            "export interface Action \(writer.type(schemas["Action"] ?? [:], indent: 0))",
        ]
        var map: [String] = []
        for name in names {
            let type = OpenAPIDocument.typeName(name)
            lines += ["", "// MARK: \(name)", ""]
            let snapshot = schemas["\(type)Snapshot"] as? [String: Any] ?? [:]
            lines += Writer.comment(snapshot["description"] as? String, indent: 0)
            lines.append("export interface \(type)Snapshot \(writer.snapshot(snapshot, feature: name))")
            let union = schemas["\(type)Event"] as? [String: Any] ?? [:]
            let mapping = (union["discriminator"] as? [String: Any])?["mapping"] as? [String: String] ?? [:]
            let references = (union["oneOf"] as? [[String: Any]] ?? []).compactMap { $0["$ref"] as? String }
            var intents: [String] = []
            for reference in references {
                guard let event = mapping.first(where: { $0.value == reference })?.key else { continue }
                let intent = "\(type)\(OpenAPIDocument.typeName(event))Intent"
                intents.append(intent)
                lines += ["", "/** The `\(event)` intent of \(name). */"]
                lines.append("export interface \(intent) \(writer.type(writer.resolved(reference) ?? [:], indent: 0))")
            }
            lines += [""] + Writer.comment(union["description"] as? String, indent: 0)
            lines.append("export type \(type)Intent =" + (intents.isEmpty ? " never;" : ""))
            lines += intents.enumerated().map { "  | \($1)\($0 == intents.count - 1 ? ";" : "")" }
            map.append("  \(Writer.key(name)): { snapshot: \(type)Snapshot; intent: \(type)Intent };")
        }
        lines += ["", "/** The app's features: each one's snapshot and intents. */", "export interface Features {"]
        lines += map + ["}", "", "/** The names of the app's features. */"]
        lines += ["export type FeatureName = keyof Features;", ""]
        return lines.joined(separator: "\n")
    }

    /// Writes schemas as TypeScript types.
    struct Writer {
        let schemas: [String: Any]
        /// Components written by name; any other reference is written out in place.
        static let named: Set<String> = ["Action"]

        /// The schema a `#/components/schemas/…` reference names.
        func resolved(_ reference: String) -> [String: Any]? {
            let prefix = "#/components/schemas/"
            guard reference.hasPrefix(prefix) else { return nil }
            return schemas[String(reference.dropFirst(prefix.count))] as? [String: Any]
        }

        /// A snapshot: the generic envelope's members and the feature's own, `feature` its name.
        func snapshot(_ schema: [String: Any], feature: String) -> String {
            var merged: [String: Any] = ["type": "object"]
            var properties: [String: Any] = [:]
            var required: [String] = []
            for part in schema["allOf"] as? [Any] ?? [] {
                guard var part = part as? [String: Any] else { continue }
                if let reference = part["$ref"] as? String { part = resolved(reference) ?? [:] }
                for (name, value) in part["properties"] as? [String: Any] ?? [:] { properties[name] = value }
                required += (part["required"] as? [String] ?? []).filter { !required.contains($0) }
            }
            properties["feature"] = ["const": feature]
            merged["properties"] = properties
            merged["required"] = required
            return type(merged, indent: 0)
        }

        /// The type of `schema`, its nested lines indented by `indent` levels.
        func type(_ schema: Any, indent: Int, depth: Int = 0) -> String {
            guard let schema = schema as? [String: Any], depth < 32 else { return "unknown" }
            if let reference = schema["$ref"] as? String {
                let name = String(reference.split(separator: "/").last ?? "")
                if Self.named.contains(name) { return name }
                return resolved(reference).map { type($0, indent: indent, depth: depth + 1) } ?? "unknown"
            }
            if let constant = schema["const"] { return Self.literal(constant) }
            if let values = schema["enum"] as? [Any] { return Self.union(values.map(Self.literal)) }
            if let choices = schema["oneOf"] as? [Any] ?? schema["anyOf"] as? [Any] {
                return Self.union(choices.map { type($0, indent: indent, depth: depth + 1) })
            }
            if let parts = schema["allOf"] as? [Any] {
                return parts.map { "(\(type($0, indent: indent, depth: depth + 1)))" }.joined(separator: " & ")
            }
            if schema["not"] != nil { return "never" }
            let kinds = (schema["type"] as? [String]) ?? (schema["type"] as? String).map { [$0] } ?? []
            guard !kinds.isEmpty else { return schema["properties"] != nil ? object(schema, indent, depth) : "unknown" }
            return Self.union(
                kinds.map { kind in
                    switch kind {
                    case "string": "string"
                    case "integer", "number": "number"
                    case "boolean": "boolean"
                    case "null": "null"
                    case "array": Self.array(type(schema["items"] ?? [:], indent: indent, depth: depth + 1))
                    case "object": object(schema, indent, depth)
                    default: "unknown"
                    }
                })
        }

        /// An object: its members, and an index signature for a map (`additionalProperties` a schema).
        private func object(_ schema: [String: Any], _ indent: Int, _ depth: Int) -> String {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            let required = schema["required"] as? [String] ?? []
            let extra = schema["additionalProperties"]
            let pad = String(repeating: "  ", count: indent + 1)
            var members: [String] = []
            // A required name without a schema of its own (an action's `type`) has the map's values' type.
            let names = properties.keys.sorted() + required.filter { properties[$0] == nil }
            for name in names {
                let member = properties[name] ?? extra as? [String: Any] ?? [:]
                members += Self.comment(description(of: member), indent: indent + 1)
                let optional = required.contains(name) ? "" : "?"
                let text = type(member, indent: indent + 1, depth: depth + 1)
                members.append("\(pad)\(Self.key(name))\(optional): \(text);")
            }
            if let values = extra as? [String: Any] {
                // An optional member is `undefined` when absent, which the index signature has to admit.
                let absent = properties.keys.contains { !required.contains($0) } ? " | undefined" : ""
                members.append("\(pad)[key: string]: \(type(values, indent: indent + 1, depth: depth + 1))\(absent);")
            } else if properties.isEmpty, (extra as? Bool) != false {
                members.append("\(pad)[key: string]: unknown;")
            }
            guard !members.isEmpty else { return "Record<string, never>" }
            return "{\n" + members.joined(separator: "\n") + "\n" + String(repeating: "  ", count: indent) + "}"
        }

        /// The description of `schema`, or of the component it refers to (not of a named one: it has its own).
        private func description(of schema: Any) -> String? {
            guard let schema = schema as? [String: Any] else { return nil }
            if let text = schema["description"] as? String { return text }
            guard let reference = schema["$ref"] as? String,
                !Self.named.contains(String(reference.split(separator: "/").last ?? ""))
            else { return nil }
            return resolved(reference)?["description"] as? String
        }

        /// `types` as one union (each once, in order), or the one type.
        static func union(_ types: [String]) -> String {
            var seen: [String] = []
            for type in types where !seen.contains(type) { seen.append(type) }
            return seen.isEmpty ? "never" : seen.joined(separator: " | ")
        }

        /// An array of `item`, parenthesised when it is a union or an intersection.
        static func array(_ item: String) -> String {
            var depth = 0
            for character in item {
                if "{([".contains(character) { depth += 1 } else if "})]".contains(character) { depth -= 1 }
                if depth == 0, character == "|" || character == "&" { return "(\(item))[]" }
            }
            return "\(item)[]"
        }

        /// A member name: as is when it is an identifier, else quoted.
        static func key(_ name: String) -> String {
            name.wholeMatch(of: #/[A-Za-z_$][A-Za-z0-9_$]*/#) != nil ? name : literal(name)
        }

        /// A JSON value as a TypeScript literal type.
        static func literal(_ value: Any) -> String {
            switch value {
            case let text as String:
                // A JSON string literal is a TypeScript one, but for the line and paragraph separators, which a
                // script before ES2019 may not hold raw in a string: those are escaped too.
                return JSONText.quoted(text).replacing("\u{2028}", with: "\\u2028")
                    .replacing("\u{2029}", with: "\\u2029")
            case is NSNull: return "null"
            case let number as NSNumber: return number.stringValue
            default: return "unknown"
            }
        }

        /// `text` as a doc comment line at `indent` levels (none for no text).
        static func comment(_ text: String?, indent: Int) -> [String] {
            guard let text, !text.isEmpty else { return [] }
            let pad = String(repeating: "  ", count: indent)
            return ["\(pad)/** \(text.replacingOccurrences(of: "*/", with: "*\\/")) */"]
        }
    }
}
