import ViewHostAPI
import ViewHostJSON
import ViewModelCore

/// One event object of a request body: its members, where it stands in a batch (`""` for a single event, `"[2]."`
/// for the third), its `type` and its own `id`. The feature's intent decodes the rest (``decode(_:fields:)``).
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

    /// The event as `Intent`, read by the intent's own `Decodable` over the parsed members (no second parse), with
    /// answers a `422` can name: the field's path (`text`, or `[2].text` in a batch), what it should be and what it
    /// was. A member the intent does not read (`txt` for `text`) is refused, so a typo is never silently ignored;
    /// `type` and `id` are always allowed. `null` counts as absent.
    /// - Parameters:
    ///   - type: The feature's intent type.
    ///   - fields: The members the intent reads for this event's type (``FeatureDefinition/fieldsByType``), checked
    ///     first, so a misspelt member is named rather than the one it stands for as missing; nil when the probe could
    ///     not list them: then the members the intent asked for, checked after.
    /// - Returns: The intent.
    /// - Throws: ``EventDecodingError`` naming the field.
    func decode<Intent: FeatureIntent>(_ type: Intent.Type, fields: [String]?) throws(EventDecodingError) -> Intent {
        var decoder = JSONValueDecoder()
        decoder.source = .client
        do {
            return try decoder.decode(Intent.self, fromMembers: members, fields: fields, ignoring: ["type", "id"])
        } catch let error as JSONValueDecoder.UnexpectedMember {
            // The name is echoed in the 422, so a name of any length is cut first.
            throw .unexpectedField(path(EventDescription.shortened(error.name, maxBytes: 64)), allowed: error.fields)
        } catch let error as DecodingError {
            throw EventDecodingError(error, prefix: pathPrefix)
        } catch {
            throw .invalidValue(path("type"), reason: "\(error)")
        }
    }

    /// The event's own `"id"`, if it has one (checked to be a string by the events route).
    var eventID: String? {
        if case .string(let id)? = value("id") { return id }
        return nil
    }
}
