import Foundation
import ViewHostAPI
import ViewHostJSON

/// One value's JSON Schema as the probe records it (``SchemaProbe``), or as inferred from an example, written out as
/// a JSONSerialization value with ``json``.
///
/// `@unchecked Sendable`: made, filled and read by one probe, at start, on one thread.
final class SchemaNode: @unchecked Sendable {
    enum Kind {
        /// Nothing known: any value.
        case unknown
        case string, integer, number, boolean, object, array
        /// An object with any names, each value of ``item``'s schema.
        case map
    }

    var kind = Kind.unknown
    var nullable = false
    /// The members of an object, in the order they were read, and those it requires.
    private(set) var properties: [(name: String, node: SchemaNode)] = []
    var required: Set<String> = []
    /// Members checked for `null` before they were read: optional ones.
    var checkedForNull: Set<String> = []
    /// An array's elements or a map's values.
    var item: SchemaNode?
    var limit: TextLimit?
    var pattern: String?
    var summary: String?
    var constant: String?
    var enumValues: [Any]?
    /// A `$ref` that replaces the rest.
    var reference: String?

    /// The member `name`'s node, made on first use.
    func property(_ name: String) -> SchemaNode {
        if let found = properties.first(where: { $0.name == name }) { return found.node }
        let node = SchemaNode()
        properties.append((name, node))
        return node
    }

    /// The names of the object's members, in order.
    var propertyNames: [String] { properties.map(\.name) }

    /// The schema as JSON (JSONSerialization values), `additionalProperties` closed where `closed` says.
    func json(closed: Bool = false) -> [String: Any] {
        if let reference { return nullable ? ["oneOf": [["$ref": reference], ["type": "null"]]] : ["$ref": reference] }
        var schema: [String: Any] = [:]
        let type: String? =
            switch kind {
            case .unknown: nil
            case .string: "string"
            case .integer: "integer"
            case .number: "number"
            case .boolean: "boolean"
            case .object, .map: "object"
            case .array: "array"
            }
        if let constant {
            schema["const"] = constant
        } else if let type {
            schema["type"] = nullable ? [type, "null"] : type
        }
        if let enumValues { schema["enum"] = nullable ? enumValues + [NSNull()] : enumValues }
        if let limit {
            schema["maxLength"] = limit.characters
            schema["x-maxBytes"] = limit.bytes
        }
        if let pattern { schema["pattern"] = pattern }
        var notes: [String] = []
        if let summary { notes.append(summary) }
        if let limit {
            notes.append(
                "At most \(limit.characters) Unicode code points (so at most \(limit.bytes) UTF-8 bytes); longer gets 422 naming the field and the limit."
            )
        }
        if nullable, constant == nil, kind == .string, limit != nil { notes.append("null is the same as absent.") }
        if !notes.isEmpty { schema["description"] = notes.joined(separator: " ") }
        switch kind {
        case .object:
            var members: [String: Any] = [:]
            for (name, node) in properties { members[name] = node.json(closed: closed) }
            schema["properties"] = members
            let required = propertyNames.filter { self.required.contains($0) }
            if !required.isEmpty { schema["required"] = required }
            schema["additionalProperties"] = !closed
        case .map:
            schema["additionalProperties"] = item?.json(closed: closed) ?? [:]
        case .array:
            schema["items"] = item?.json(closed: closed) ?? [:]
        default:
            break
        }
        return schema
    }

    /// A loose schema read off one example value: types as seen, nothing required, `null` allowing any value.
    static func inferred(from example: JSONValue) -> SchemaNode {
        let node = SchemaNode()
        switch example {
        case .null:
            break
        case .object(let members):
            node.kind = .object
            for (name, value) in members {
                let child = node.property(name)
                child.copy(inferred(from: value))
                child.nullable = true
            }
        case .array(let elements):
            node.kind = .array
            node.item = elements.first.map(inferred(from:))
        case .string:
            node.kind = .string
        case .number:
            node.kind = .number
        case .bool:
            node.kind = .boolean
        }
        return node
    }

    private func copy(_ other: SchemaNode) {
        kind = other.kind
        item = other.item
        properties = other.properties
    }

    /// Forgets what was recorded and takes `other`'s schema instead (its nullability kept).
    func replace(with other: SchemaNode) {
        copy(other)
        required = other.required
        limit = nil
        pattern = nil
        constant = nil
        enumValues = nil
        reference = nil
    }
}
