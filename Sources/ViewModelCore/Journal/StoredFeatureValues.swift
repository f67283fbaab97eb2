import Foundation
import ViewHostJSON

/// One feature's stored values read alone, by the very code a store reads a session with: a state through
/// ``FeatureSlot``'s `Decodable` (a session's value holds one slot per feature), events through ``StoredEvents``'s
/// (a journal record's), so an older schema version is migrated by the feature's `migrate` exactly as on load. What
/// `ViewHostTesting`'s `StoredMigration` gives a test of a feature's migrations.
package enum StoredFeatureValues<F: Feature> {
    /// The deepest nesting read, as a replay reads a record's events.
    package static var maxDepth: Int { 512 }

    /// The state in `json` (the state's own JSON, as a session's value stores it under `state`), stored by schema
    /// `version`, as this build loads it.
    /// - Throws: `JSONParser.Failure` when `json` is not one JSON value; ``SchemaError`` for a version this build
    ///   does not read; ``StoredFeatureError`` naming the member that does not decode (`state.items[0].title`); the
    ///   feature's own migration's error.
    package static func state(json: Data, version: Int) throws -> F.State {
        // One whole JSON value, so the slot around it is the one below and nothing else.
        _ = try JSONParser.parse([UInt8](json), maxDepth: maxDepth)
        // The slot exactly as a store writes one (keys sorted), with the state's bytes untouched.
        var slot = Data(#"{"lastChangeSequence":0,"schema":\#(version),"state":"#.utf8)
        slot.append(json)
        slot.append(Data(#","version":1}"#.utf8))
        return try JSONDecoder().decode(FeatureSlot<F>.self, from: slot).state
    }

    /// The events in `json` (a JSON array of events), stored by schema `version`, as this build reads a journal
    /// record's.
    /// - Throws: As ``state(json:version:)``, naming `events[0]…`; a `DecodingError` when `json` is not an array.
    package static func events(json: Data, version: Int) throws -> [F.Event] {
        _ = try JSONParser.parse([UInt8](json), maxDepth: maxDepth)
        return try events(stored: StoredEventsShape.data(array: json, schema: version))
    }

    /// The events of a journal record as it stores them (a bare array at schema version 1, else
    /// `{"schema":N,"events":[…]}`), as this build reads them.
    package static func events(stored: Data) throws -> [F.Event] {
        try JSONDecoder().decode(StoredEvents<F>.self, from: stored).events.compactMap { $0 as? F.Event }
    }
}
