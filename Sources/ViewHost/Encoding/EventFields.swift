import ViewHostJSON
import ViewModelCore

/// One event object of a request body, with typed accessors that fail with the field's path
/// (`text`, or `[2].text` inside a batch), so a 422 names exactly what is wrong.
struct EventFields {
    let members: [(String, JSONValue)]
    /// `""` for a single event, `"[2]."` for the third event of a batch.
    let pathPrefix: String

    /// The event's `type`.
    var type: String {
        get throws(EventDecodingError) { try string("type") }
    }

    /// The path of `field` for error messages.
    func path(_ field: String) -> String { pathPrefix + field }

    func value(_ field: String) -> JSONValue? {
        members.first { $0.0 == field }?.1
    }

    /// A required string field.
    func string(_ field: String) throws(EventDecodingError) -> String {
        guard let value = value(field), value != .null else { throw .missingField(path(field)) }
        guard case .string(let text) = value else { throw .wrongType(path(field), expected: "a string", got: value.typeName) }
        return text
    }

    /// An optional string field (absent or null gives nil).
    func optionalString(_ field: String) throws(EventDecodingError) -> String? {
        guard let value = value(field), value != .null else { return nil }
        guard case .string(let text) = value else { throw .wrongType(path(field), expected: "a string", got: value.typeName) }
        return text
    }

    /// A required string field within `limit`.
    func string(_ field: String, limit: TextLimit) throws(EventDecodingError) -> String {
        let text = try string(field)
        if let reason = limit.violation(of: text) { throw .invalidValue(path(field), reason: reason) }
        return text
    }

    /// An optional string field within `limit`.
    func optionalString(_ field: String, limit: TextLimit) throws(EventDecodingError) -> String? {
        guard let text = try optionalString(field) else { return nil }
        if let reason = limit.violation(of: text) { throw .invalidValue(path(field), reason: reason) }
        return text
    }

    /// The event's own `"id"`, if it has one (checked to be a string by the events route).
    var eventID: String? {
        if case .string(let id)? = value("id") { return id }
        return nil
    }

    /// `value` for an event type that takes no fields, refusing any field but `type` and `id`.
    func none<Value>(_ value: Value) throws(EventDecodingError) -> Value {
        try onlyFields([])
        return value
    }

    /// Refuses members other than `type`, `id` and `allowed`, so a typo (`txt`) is not silently ignored.
    func onlyFields(_ allowed: [String]) throws(EventDecodingError) {
        // A few names each: a linear search beats hashing them into a set on every event.
        for (name, _) in members where name != "type" && name != "id" && !allowed.contains(name) {
            // The name is echoed in the 422, so a name of any length is cut first.
            throw .unexpectedField(path(EventDescription.shortened(name, maxBytes: 64)), allowed: allowed.sorted())
        }
    }
}

/// Why an event in a request body cannot be routed; answered with `422` naming the field.
enum EventDecodingError: Error, Equatable {
    case notAnObject(String)
    case missingField(String)
    case wrongType(String, expected: String, got: String)
    case invalidValue(String, reason: String)
    case unknownType(String, type: String, allowed: [String])
    case unexpectedField(String, allowed: [String])
    case emptyBatch
}
