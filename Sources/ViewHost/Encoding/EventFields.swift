import ViewHostJSON
import ViewModelCore

/// One event object of a request body: its members, where it stands in a batch (`""` for a single event, `"[2]."`
/// for the third), its `type` and its own `id`. The feature's intent decodes the rest (``IntentDecoder``).
struct EventFields {
    let members: [(String, JSONValue)]
    /// `""` for a single event, `"[2]."` for the third event of a batch.
    let pathPrefix: String

    /// The event's `type`.
    var type: String {
        get throws(EventDecodingError) {
            guard let value = value("type"), value != .null else { throw .missingField(path("type")) }
            guard case .string(let text) = value else {
                throw .wrongType(path("type"), expected: "a string", got: value.typeName)
            }
            return text
        }
    }

    /// The path of `field` for error messages.
    func path(_ field: String) -> String { pathPrefix + field }

    func value(_ field: String) -> JSONValue? {
        members.first { $0.0 == field }?.1
    }

    /// Refuses members other than `type`, `id` and `allowed`, so a typo (`txt`) is not silently ignored.
    func onlyFields(_ allowed: [String]) throws(EventDecodingError) {
        // A few names each: a linear search beats hashing them into a set on every event.
        for (name, _) in members where name != "type" && name != "id" && !allowed.contains(name) {
            // The name is echoed in the 422, so a name of any length is cut first.
            throw .unexpectedField(path(EventDescription.shortened(name, maxBytes: 64)), allowed: allowed.sorted())
        }
    }

    /// The event's own `"id"`, if it has one (checked to be a string by the events route).
    var eventID: String? {
        if case .string(let id)? = value("id") { return id }
        return nil
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
