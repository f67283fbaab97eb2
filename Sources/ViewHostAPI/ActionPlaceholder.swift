/// A field of an action that the person fills in: its name (the `{name}` of the body, which is the field's own
/// name when the action was made from an intent) and the type of value it takes.
public struct ActionPlaceholder: Equatable, Hashable, Sendable {
    /// The placeholder's name, such as `title`.
    public var name: String
    /// What it takes.
    public var type: ActionInputType

    /// A placeholder `name` taking `type`.
    public init(name: String, type: ActionInputType = .string) {
        self.name = name
        self.type = type
    }

    /// The value to post for `given`, converted to the placeholder's type: a string such as `"3"` for an integer
    /// (what a text field or a command-line argument gives), the value itself when it already has that type.
    /// - Throws: ``ActionDescriptor/ParameterError`` saying what the placeholder takes.
    public func value(for given: ActionValue) throws(ActionDescriptor.ParameterError) -> ActionValue {
        let converted: ActionValue? =
            switch (type, given) {
            case (.string, .string): given
            case (.integer, .integer): given
            case (.integer, .number(let number)): Int(exactly: number).map { .integer($0) }
            case (.integer, .string(let text)): Int(text).map { .integer($0) }
            case (.number, .number), (.number, .integer): given
            case (.number, .string(let text)): Double(text).flatMap { $0.isFinite ? .number($0) : nil }
            case (.boolean, .bool): given
            case (.boolean, .string("true")): .bool(true)
            case (.boolean, .string("false")): .bool(false)
            case (.oneOf(let cases), .string(let text)): cases.contains(text) ? given : nil
            default: nil
            }
        guard let converted else { throw ActionDescriptor.ParameterError(name: name, expected: type) }
        return converted
    }
}

/// The type of value a placeholder takes, as JSON Schema states it in an action's `inputs` member
/// (`{"type":"integer"}`, `{"type":"string","enum":["todo","done"]}`).
public enum ActionInputType: Codable, Equatable, Hashable, Sendable {
    /// Any string (the default: such a placeholder is not listed in `inputs`).
    case string
    /// A whole number.
    case integer
    /// A number.
    case number
    /// `true` or `false`.
    case boolean
    /// One of these strings (an enum's raw values).
    case oneOf([String])

    /// Whether the value is posted as a JSON string (any string, or one of an enum's).
    public var takesString: Bool {
        switch self {
        case .string, .oneOf: true
        case .integer, .number, .boolean: false
        }
    }

    /// "an integer", "one of todo, done"…, after "must be".
    public var phrase: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "true or false"
        case .oneOf(let cases): "one of " + cases.joined(separator: ", ")
        }
    }

    private enum CodingKeys: String, CodingKey {
        case type, `enum`
    }

    /// Reads `{"type":…}`, with `enum` for one of an enum's values; refuses a type it does not know.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "string":
            let cases = try container.decodeIfPresent([String].self, forKey: .enum)
            self = cases.map { .oneOf($0) } ?? .string
        case "integer": self = .integer
        case "number": self = .number
        case "boolean": self = .boolean
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "'\(type)' is not an input type; the input types: string, integer, number, boolean")
        }
    }

    /// Writes `{"type":…}`, with `enum` for one of an enum's values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .string: try container.encode("string", forKey: .type)
        case .integer: try container.encode("integer", forKey: .type)
        case .number: try container.encode("number", forKey: .type)
        case .boolean: try container.encode("boolean", forKey: .type)
        case .oneOf(let cases):
            try container.encode("string", forKey: .type)
            try container.encode(cases, forKey: .enum)
        }
    }
}
