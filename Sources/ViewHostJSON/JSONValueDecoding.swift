import Foundation

/// ``JSONValueDecoder``'s `Decoder` over one value, and its reading of a value as a type, which the containers share.
struct JSONValueDecoding: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    /// One per decoding, shared by reference: a decoder is copied into a box for each value it reads, so it stays as
    /// small as it can.
    let shared: JSONValueDecodingState

    var userInfo: [CodingUserInfoKey: Any] { shared.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            if case .null = value { throw Self.null([String: Any].self, codingPath) }
            throw Self.mismatch([String: Any].self, "an object", value, codingPath)
        }
        return KeyedDecodingContainer(JSONValueKeyedContainer<Key>(members: members, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            if case .null = value { throw Self.null([Any].self, codingPath) }
            throw Self.mismatch([Any].self, "an array", value, codingPath)
        }
        return JSONValueUnkeyedContainer(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        JSONValueSingleContainer(decoder: self)
    }

    /// The decoder of `value` at `path`.
    func nested(_ value: JSONValue, at path: [any CodingKey]) -> JSONValueDecoding {
        JSONValueDecoding(value: value, codingPath: path, shared: shared)
    }

    /// `value` as `T`, at `parent` and then `key` (the path is made only when it is needed: for an error, or
    /// for the decoder a nested value is read with).
    ///
    /// The scalars are read here (their own `init(from:)` would ask for themselves again), each handed back as `T`
    /// once `T` is known to be its type (``exactly(_:as:)``).
    func read<T: Decodable>(
        _ type: T.Type, from value: JSONValue, parent: [any CodingKey], key: (any CodingKey)?
    ) throws -> T {
        func path() -> [any CodingKey] { key.map { parent + [$0] } ?? parent }
        func refused(_ description: String, _ refusal: JSONValueDecoder.Refusal) -> DecodingError {
            .dataCorrupted(.init(codingPath: path(), debugDescription: description, underlyingError: refusal))
        }
        switch value {
        case .object, .array, .null:
            // A null goes to the type's own `init(from:)`, as JSONDecoder hands it: `Optional`'s and `Nullable`'s
            // take it; a scalar (below) and a container (``container(keyedBy:)``) refuse it as missing.
            break
        case .string(let text):
            if T.self == String.self { return exactly(text, as: T.self) }
            if T.self == Data.self {
                // JSONDecoder's default data strategy: base64 text.
                guard let data = Data(base64Encoded: text) else {
                    let refusal = JSONValueDecoder.Refusal.wrongType(expected: "base64 text", found: "a string")
                    throw refused("Encountered Data is not valid Base64.", refusal)
                }
                return exactly(data, as: T.self)
            }
        case .bool(let flag):
            if T.self == Bool.self { return exactly(flag, as: T.self) }
        case .number(let number):
            if T.self == Double.self { return exactly(number, as: T.self) }
            if let integer = T.self as? any FixedWidthInteger.Type {
                // A Double holds every integer below 2^53 exactly; from there on the text's digits may be lost.
                guard shared.source == .client || abs(number) < 9_007_199_254_740_992 else {
                    throw JSONValueDecoder.Unsupported(description: "an integer of 2^53 or more")
                }
                guard let exact = integer.init(exactly: number) else {
                    let refusal = JSONValueDecoder.Refusal.wrongType(expected: "an integer", found: "a number")
                    throw refused("Number \(number) is not representable in Swift.", refusal)
                }
                return exactly(exact, as: T.self)
            }
            if T.self == Float.self {
                let narrowed = Float(number)
                guard narrowed.isFinite else {
                    let most = Float.greatestFiniteMagnitude
                    throw refused(
                        "Number \(number) does not fit in Float.",
                        .outOfRange(reason: "must be a number Float holds, at most \(most) in magnitude"))
                }
                return exactly(narrowed, as: T.self)
            }
        }
        if let expected = Self.scalarKind(T.self) {
            if case .null = value { throw Self.null(T.self, path()) }
            throw Self.mismatch(T.self, expected, value, path())
        }
        if shared.source == .encoded {
            guard !SortedJSONEncoder.isSpecialCased(T.self) else {
                throw JSONValueDecoder.Unsupported(description: "\(T.self) is decoded by JSONDecoder's own rules")
            }
            return try T(from: nested(value, at: path()))
        }
        return try nested(value, at: path()).decodeListingCases(T.self)
    }

    /// This decoder's value as `T`, by `T`'s own `init(from:)`, refusing a value that is none of an enum's cases with
    /// the cases listed. Apart from ``read(_:from:parent:key:)``, which reads the stored events of a replay: the catch
    /// would cost it a twentieth of its time.
    @inline(never)
    private func decodeListingCases<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try T(from: self)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.count == codingPath.count {
            // About this value, not one inside it: an enum's `init(rawValue:)` that gave nil, for one.
            guard context.underlyingError == nil, let cases = JSONValue.cases(of: T.self), !cases.contains(value) else {
                throw DecodingError.dataCorrupted(context)
            }
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: context.codingPath, debugDescription: context.debugDescription,
                    underlyingError: JSONValueDecoder.Refusal.notACase(value, cases: cases)))
        }
    }

    /// The JSON type a scalar type is read from ("a string"), or nil for any other type: those this decoder reads
    /// itself, whose own `init(from:)` would ask for themselves again.
    private static func scalarKind(_ type: Any.Type) -> String? {
        if type == String.self || type == Data.self { return "a string" }
        if type == Bool.self { return "a boolean" }
        if type == Double.self || type == Float.self { return "a number" }
        if type is any FixedWidthInteger.Type { return "an integer" }
        return nil
    }

    /// A null where a value of `type` must be: missing, as JSONDecoder says.
    static func null(_ type: Any.Type, _ path: [any CodingKey]) -> DecodingError {
        .valueNotFound(
            type,
            .init(codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }

    static func mismatch(_ type: Any.Type, _ expected: String, _ value: JSONValue, _ path: [any CodingKey])
        -> DecodingError
    {
        .typeMismatch(
            type,
            .init(
                codingPath: path,
                debugDescription: "Expected to decode \(expected) but found \(value.typeName) instead.",
                underlyingError: JSONValueDecoder.Refusal.wrongType(expected: expected, found: value.typeName)))
    }
}

/// What the decoders of one decoding share: its settings, and the top-level members asked for, when they are noted.
/// A class, so a decoder holds one reference for all of it; it lives for one decoding, on one thread.
final class JSONValueDecodingState {
    let userInfo: [CodingUserInfoKey: any Sendable]
    let source: JSONValueDecoder.Source
    /// The names of the top-level members asked for (present or not), in order; nil when they are not noted.
    private(set) var notedMembers: [String]?

    init(userInfo: [CodingUserInfoKey: any Sendable], source: JSONValueDecoder.Source, notesMembers: Bool) {
        self.userInfo = userInfo
        self.source = source
        notedMembers = notesMembers ? [] : nil
    }

    /// Notes the top-level member `name` as read.
    func note(_ name: String) {
        if notedMembers?.contains(name) == false { notedMembers?.append(name) }
    }
}

/// `value` as `T`, which it is: each caller hands over a value of the type it has just compared `T` with, or (an
/// integer) one that `T`'s own `init(exactly:)` made. The one cast this decoder makes, and it cannot fail: a
/// conditional cast would look up `Optional<T>`'s metadata on every value read, a tenth of a replay's decoding.
@inline(__always)
private func exactly<Value, T>(_ value: Value, as type: T.Type) -> T {
    value as! T
}

/// The key `JSONDecoder` reads a keyed container's super decoder from.
struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }

    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}
