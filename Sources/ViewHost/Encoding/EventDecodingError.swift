import ViewHostJSON
import ViewModelCore

/// Why an event in a request body cannot be routed; answered with `422` naming the field.
enum EventDecodingError: Error, Equatable {
    case notAnObject(String)
    case missingField(String)
    case wrongType(String, expected: String, got: String)
    case invalidValue(String, reason: String)
    case unknownType(String, type: String, allowed: [String])
    case unexpectedField(String, allowed: [String])
    /// A value that is none of its field's values (an enum's cases): the value cut to a few bytes, as it is echoed,
    /// and the values, each as text.
    case notAllowed(String, value: String, allowed: [String])
    case emptyBatch

    /// The `DecodingError` of an intent's decoding, thrown by ``JSONValueDecoder`` (then worded from its
    /// ``JSONValueDecoder/Refusal``) or by the intent itself (a limit, a value it refuses: then its own words), as the
    /// field it is about and why. `null` counts as absent: a required field that is `null` is missing.
    /// - Parameters:
    ///   - error: What the decoding threw.
    ///   - prefix: `""` for a single event, `"[2]."` for the third of a batch.
    init(_ error: DecodingError, prefix: String) {
        switch error {
        case .keyNotFound(let key, let context):
            self = .missingField(prefix + Self.path(context.codingPath + [key]))
        case .valueNotFound(_, let context):
            self = .missingField(prefix + Self.path(context.codingPath))
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            let field = prefix + Self.path(context.codingPath)
            switch context.underlyingError as? JSONValueDecoder.Refusal {
            case .wrongType(let expected, let found)?:
                self = .wrongType(field, expected: expected, got: found)
            case .notACase(let value, let cases)?:
                let shown = EventDescription.shortened(Self.text(value), maxBytes: 64)
                self = .notAllowed(field, value: shown, allowed: cases.map(Self.text))
            case .outOfRange(let reason)?:
                self = .invalidValue(field, reason: reason)
            case nil:
                self = .invalidValue(field, reason: context.debugDescription)
            }
        @unknown default:
            self = .invalidValue(prefix + "type", reason: "\(error)")
        }
    }

    /// `text`, `items[2].title`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    /// A value as a message shows it: a string as it is, anything else as JSON.
    private static func text(_ value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        return String(decoding: value.json, as: UTF8.self)
    }
}
