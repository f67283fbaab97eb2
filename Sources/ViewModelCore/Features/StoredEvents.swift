import Foundation
import ViewHostJSON

/// The stored shape of a journal record's events, written the same way every time: the array as it is at schema
/// version 1, else `{"schema":N,"events":[…]}` in that order (a keyed container's order is JSONEncoder's to choose,
/// and it varied; a journal export's import rebuilds these bytes exactly).
enum StoredEventsShape {
    static func data(array: Data, schema: Int) -> Data {
        schema == 1 ? array : data(array: [UInt8](array), schema: schema)
    }

    /// ``data(array:schema:)`` of the array's bytes as the encoder made them: one buffer, copied once into the
    /// `Data` (every client event of a feature past schema version 1 is stored this way).
    static func data(array: [UInt8], schema: Int) -> Data {
        Data(schema == 1 ? array : wrapped(array, schema: schema))
    }

    private static func wrapped(_ array: [UInt8], schema: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(array.count + 32)
        bytes.append(contentsOf: "{\"schema\":".utf8)
        bytes.append(contentsOf: String(schema).utf8)
        bytes.append(contentsOf: ",\"events\":".utf8)
        bytes.append(contentsOf: array)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// What `JSONParser` reads from ``data(array:schema:)``'s text, given what it reads from `array`'s (a caller
    /// that has parsed the array already need not parse the stored text again).
    static func value(array: JSONValue, schema: Int) -> JSONValue {
        schema == 1 ? array : .object([("schema", .number(Double(schema))), ("events", array)])
    }
}

/// A journal record's events as stored: a bare array for schema version 1 (what every store before schema versions
/// holds), else `{"schema":N,"events":[…]}` (``StoredEventsShape``). Events of an older schema are migrated as they
/// are read.
struct StoredEvents<F: Feature>: Decodable {
    /// The events, each an `F.Event` (held as a replay takes them, not converted from an `[F.Event]` again).
    let events: [any Sendable]

    private enum CodingKeys: String, CodingKey {
        case schema, events
    }

    /// `events` as a journal records them: a bare array at schema version 1, else with the version.
    /// Keys sorted, `/` unescaped (``StoredJSON``).
    static func encoded(_ events: [F.Event]) throws -> Data {
        StoredEventsShape.data(array: try StoredJSON.bytes(of: events), schema: F.schemaVersion)
    }

    /// - Throws: ``SchemaError`` for a schema version the feature does not read; ``StoredFeatureError`` naming the
    ///   event that does not decode.
    init(from decoder: any Decoder) throws {
        let schema: Int
        var list: any UnkeyedDecodingContainer
        if let keyed = try? decoder.container(keyedBy: CodingKeys.self) {
            schema = try keyed.decode(Int.self, forKey: .schema)
            list = try keyed.nestedUnkeyedContainer(forKey: .events)
        } else {
            schema = 1
            list = try decoder.unkeyedContainer()
        }
        do {
            if schema == F.schemaVersion {
                events = try Self.decode(&list)
            } else {
                try F.checkStored(schema: schema)
                var events: [any Sendable] = []
                while !list.isAtEnd { events.append(try F.migrate(event: list.superDecoder(), from: schema)) }
                self.events = events
            }
        } catch {
            throw StoredFeatureError(
                error, of: F.self, storedVersion: schema, base: decoder.codingPath, prefix: "events") ?? error
        }
    }

    /// The events of `list`, at the feature's schema version.
    private static func decode(_ list: inout any UnkeyedDecodingContainer) throws -> [any Sendable] {
        var events: [any Sendable] = []
        events.reserveCapacity(list.count ?? 1)
        while !list.isAtEnd { events.append(try list.decode(F.Event.self)) }
        return events
    }

    /// A bare array of events at the feature's schema version, read as it is (no object form asked for first).
    struct Bare: Decodable {
        let events: [any Sendable]

        init(from decoder: any Decoder) throws {
            var list = try decoder.unkeyedContainer()
            events = try StoredEvents.decode(&list)
        }
    }
}
