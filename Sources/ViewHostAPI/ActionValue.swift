/// One field of an action's body: a fixed JSON value, or a placeholder the person fills in.
///
/// On the wire a placeholder is the string `"{name}"` (what it has always been), and the action's `inputs` member
/// says its type when it is not a plain string. So a string of that shape is a placeholder wherever it is read:
/// ``ActionDescriptor`` reads `.string("{title}")` as `.placeholder` too, as a client reading the JSON would.
public enum ActionValue: Codable, Equatable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case null
    /// A value the person gives (a prompt's text field, a `viewhost client` argument, a parameter of `perform`).
    case placeholder(ActionPlaceholder)

    /// The placeholder `name` taking `type`: `["title": .input("title")]` is the body `{"title":"{title}"}`.
    public static func input(_ name: String, _ type: ActionInputType = .string) -> ActionValue {
        .placeholder(ActionPlaceholder(name: name, type: type))
    }

    /// A fixed string (`"{name}"` is read as a string placeholder where an action is made).
    public init(stringLiteral value: String) { self = .string(value) }
    /// A fixed integer.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A fixed number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A fixed boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// The placeholder a wire string `{name}` stands for (a string one), or nil for any other string.
    static func placeholderName(in text: String) -> String? {
        guard text.count > 2, text.hasPrefix("{"), text.hasSuffix("}") else { return nil }
        return String(text.dropFirst().dropLast())
    }

    /// The value with a `{name}` string read as the placeholder `name` of type `inputs[name]` (a string when the
    /// action does not say).
    func resolved(inputs: [String: ActionInputType]) -> ActionValue {
        guard case .string(let text) = self, let name = Self.placeholderName(in: text) else { return self }
        return .placeholder(ActionPlaceholder(name: name, type: inputs[name] ?? .string))
    }

    /// The value as the body carries it: a placeholder as its `{name}` string.
    var wireValue: ActionValue {
        if case .placeholder(let placeholder) = self { .string("{\(placeholder.name)}") } else { self }
    }

    /// Reads a JSON scalar; a `{name}` string stays a string here (``ActionDescriptor`` resolves it with `inputs`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Writes the JSON value; a placeholder as its `{name}` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch wireValue {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null, .placeholder: try container.encodeNil()
        }
    }

    /// The value as `viewhost client actions` shows it: a string as it is, a placeholder as `{name}`, others as
    /// JSON writes them.
    public var description: String {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .bool(let value): String(value)
        case .null: "null"
        case .placeholder(let placeholder): "{\(placeholder.name)}"
        }
    }

    /// The value `value` (a scalar) as a field of an action, or nil for an array or an object.
    init?(_ value: CapturedValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .integer(let number): self = .integer(number)
        case .number(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .array, .object: return nil
        }
    }
}
