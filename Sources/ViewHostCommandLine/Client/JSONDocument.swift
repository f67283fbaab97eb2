import Foundation
import ViewHost
import ViewHostAPI

/// Any JSON value, decoded without losing which is which (a `Bool` is not a number), for printing snapshots
/// of any feature.
enum JSONDocument: Codable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONDocument])
    case object([String: JSONDocument])

    /// Reads any JSON value: a scalar as ``ActionValue`` reads one (null, then a `Bool`, an `Int`, a `Double`, a
    /// string, in that order, so a `Bool` is not a number and an integer stays one), else an array, else an object.
    init(from decoder: any Decoder) throws {
        if let scalar = try? ActionValue(from: decoder) {
            self.init(scalar)
            return
        }
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode([JSONDocument].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONDocument].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let items): try container.encode(items)
        case .object(let members): try container.encode(members)
        }
    }

    /// A field of an action's body as the JSON holds it: a placeholder as its `{name}` string.
    init(_ value: ActionValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .integer(number)
        case .number(let number): self = .number(number)
        case .bool(let flag): self = .bool(flag)
        case .null: self = .null
        case .placeholder(let placeholder): self = .string("{\(placeholder.name)}")
        }
    }

    /// What a placeholder takes, as an action's `inputs` states it: `{"type":"integer"}`,
    /// `{"type":"string","enum":[…]}`.
    init(_ type: ActionInputType) {
        switch type {
        case .string: self = .object(["type": .string("string")])
        case .integer: self = .object(["type": .string("integer")])
        case .number: self = .object(["type": .string("number")])
        case .boolean: self = .object(["type": .string("boolean")])
        case .oneOf(let cases):
            self = .object(["type": .string("string"), "enum": .array(cases.map(JSONDocument.string))])
        }
    }

    /// Parses `data`.
    static func parse(_ data: Data) throws -> JSONDocument {
        try JSONDecoder().decode(JSONDocument.self, from: data)
    }

    /// A member of an object.
    subscript(key: String) -> JSONDocument? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// A scalar as text: strings as they are (quoted when empty or multi-line), others as JSON writes them.
    var scalarText: String? {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .string(let value):
            value.isEmpty || value.contains("\n") || value != value.trimmingCharacters(in: .whitespaces)
                ? String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self) : value
        case .array(let items) where items.isEmpty: "[]"
        case .object(let members) where members.isEmpty: "{}"
        case .array, .object: nil
        }
    }
}
