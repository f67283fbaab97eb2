import Foundation

/// Decodes `Decodable` values from a ``JSONValue`` parsed by ``JSONParser``: the one decoder of the journal's stored
/// events (decoded again on each replay, export and import, where `JSONDecoder` cost a third of the time, about
/// 14 µs for a one-event record), of the events a client posts (the intent's own `Decodable`, with the members it
/// does not read refused) and of the values the OpenAPI schema probe hands an intent or a snapshot.
///
/// It reads as Foundation's `JSONDecoder` does with its default strategies, and never guesses where that would answer
/// differently: what it does not read exactly is refused with ``Unsupported`` (a `URL` or `Decimal`, which
/// `JSONDecoder` special-cases; an integer of 2^53 or more in magnitude, which a `Double` holds only approximately;
/// duplicate member names), so a caller can fall back to `JSONDecoder` for that text, unless it reads a client's
/// JSON (``source``). `Date` and `Data` are read as `JSONDecoder`'s default strategies read them (the date's own
/// `init(from:)`, a number of seconds since 2001; the data from base64 text).
///
/// Errors are `DecodingError`s with coding paths, as `JSONDecoder` throws; a value it refuses itself carries a
/// ``Refusal`` as the context's `underlyingError`, in words a message about the field can use (`must be a string,
/// not a number`; a value none of its enum's cases, with the cases).
public struct JSONValueDecoder {
    /// Why a text is left to `JSONDecoder`.
    public struct Unsupported: Error, CustomStringConvertible {
        /// What the text holds that is left to `JSONDecoder`.
        public let description: String
    }

    /// A member of an object that its type does not read (``decode(_:fromMembers:fields:ignoring:)``).
    public struct UnexpectedMember: Error, Equatable, CustomStringConvertible {
        /// The member's name, as sent.
        public let name: String
        /// The members the type reads, sorted, without the ignored ones.
        public let fields: [String]

        /// The member `name`, of an object whose type reads `fields`.
        public init(name: String, fields: [String]) {
            self.name = name
            self.fields = fields
        }

        /// The member and the members its type reads.
        public var description: String { "unexpected member '\(name)'; the members read: \(fields)" }
    }

    /// Whose JSON a decoder reads, which decides what it leaves to `JSONDecoder` and how much a refusal says.
    public enum Source: Sendable {
        /// JSON that `JSONEncoder` or ``SortedJSONEncoder`` wrote, read again and again (the journal's stored
        /// events): what `JSONDecoder` reads by rules of its own is left to it (``Unsupported``), and a refusal says
        /// no more than the JSON types (``Refusal/wrongType(expected:found:)``).
        case encoded
        /// JSON a client sent (a posted event), which no other decoder reads: read here whole (a `URL` or `Decimal`
        /// by its own `init(from:)`, an integer from its number whenever that number is one), and a value that is
        /// none of an enum's cases is refused listing them (``Refusal/notACase(_:cases:)``).
        case client
    }

    /// Values for `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Whose JSON this decoder reads: ``Source/encoded`` unless set.
    public var source = Source.encoded

    /// A decoder of encoded JSON (``Source/encoded``) with no `userInfo`.
    public init() {}

    /// The value of type `type` in the JSON text `bytes`.
    /// - Throws: ``Unsupported`` (see above), or `DecodingError` as `JSONDecoder` would.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maxDepth: 512)
        } catch {
            throw Unsupported(description: "not read here: \(error)")
        }
        return try decode(type, from: value)
    }

    /// The value of type `type` in `value`.
    /// - Throws: ``Unsupported`` (see above), or `DecodingError` as `JSONDecoder` would.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try decoding(value, notesMembers: false).read(type, from: value, parent: [], key: nil)
    }

    /// The value of type `type` in the JSON object `members`, which may have no member `type` does not read but the
    /// `ignored` ones, so a misspelt name (`txt` for `text`) is never silently dropped.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - members: The object's members, as ``JSONParser`` read them.
    ///   - fields: The members `type` reads, when they are known beforehand (the OpenAPI schema probe lists them at
    ///     start): checked before decoding, so a misspelt member is named rather than the member it stands for as
    ///     missing. nil: the members it asks for while it decodes, checked after.
    ///   - ignored: Members that any object may have, which `type` need not read (an event's `type` and `id`).
    /// - Returns: The value.
    /// - Throws: ``UnexpectedMember`` for the first member neither read nor ignored; else what decoding the object
    ///   throws.
    public func decode<T: Decodable>(
        _ type: T.Type, fromMembers members: [(String, JSONValue)], fields: [String]?, ignoring ignored: [String]
    ) throws -> T {
        let value = JSONValue.object(members)
        if let fields {
            try Self.check(members, fields: fields, ignoring: ignored)
            return try decode(type, from: value)
        }
        let decoding = decoding(value, notesMembers: true)
        let decoded = try decoding.read(type, from: value, parent: [], key: nil)
        try Self.check(members, fields: decoding.shared.notedMembers ?? [], ignoring: ignored)
        return decoded
    }

    private func decoding(_ value: JSONValue, notesMembers: Bool) -> JSONValueDecoding {
        JSONValueDecoding(
            value: value, codingPath: [],
            shared: JSONValueDecodingState(userInfo: userInfo, source: source, notesMembers: notesMembers))
    }

    /// The one check that an object has no member but those read and the ignored ones.
    private static func check(
        _ members: [(String, JSONValue)], fields: [String], ignoring ignored: [String]
    ) throws(UnexpectedMember) {
        // A few names each: a linear search beats hashing them into a set on every event.
        for (name, _) in members where !ignored.contains(name) && !fields.contains(name) {
            throw UnexpectedMember(name: name, fields: fields.filter { !ignored.contains($0) }.sorted())
        }
    }
}
