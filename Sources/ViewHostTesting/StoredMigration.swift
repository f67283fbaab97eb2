import Foundation
import ViewHostJSON
import ViewModelCore

/// What this build loads from data an earlier build stored: a feature's state or events written by an older
/// `Feature.schemaVersion`, or a whole journal export, brought up to date by the feature's own
/// `Feature.migrate(state:from:)` and `Feature.migrate(event:from:)`. It reads them with the code the stores
/// read a session with (a session's stored slot, a journal record's events, `JournalImport` for an export), so a
/// test of a migration tests what the server will do with last release's sessions.
///
/// ```swift
/// @Test func aVersionOneListIsReadWithPriorities() throws {
///     let stored = #"{"items":[{"id":"t1","title":"Milk","done":false}],"nextID":2}"#
///     let state = try StoredMigration.state(of: TodoApp.self, stored: Data(stored.utf8), version: 1)
///     #expect(state.items.map(\.priority) == [0])
/// }
/// ```
///
/// Keep the JSON of each released version as a fixture (copy it from a store, `sqlite3 data/viewhost.sqlite`, or
/// from a journal export's header) and check it still loads whenever the shape changes again.
public enum StoredMigration {
    /// The state `stored` holds, written by schema `version` of `feature`, as this build loads it.
    /// - Parameters:
    ///   - feature: The feature whose state it is.
    ///   - stored: The state's JSON, as a session's value stores it (what `JSONEncoder` made of the old state).
    ///   - version: The schema version that wrote it: from `Feature.oldestMigratableVersion` to
    ///     `Feature.schemaVersion` (the current one is read as it is, without migrating).
    /// - Returns: The state the feature's migration made of it.
    /// - Throws: ``StoredMigrationError`` when `stored` is not JSON or `version` is below 1; `SchemaError` for a
    ///   version the feature does not migrate from or one newer than its own; `StoredFeatureError` naming the member
    ///   that does not decode (`state.items[0].title is missing`) and whether a migration failed; an error the
    ///   migration threw.
    public static func state<F: Feature>(of feature: F.Type, stored: some Sequence<UInt8>, version: Int) throws
        -> F.State
    {
        try check(version)
        return try reading("the stored state") {
            try StoredFeatureValues<F>.state(json: Data(stored), version: version)
        }
    }

    /// The state `stored` holds, written by schema `version` of `feature`, as this build loads it.
    /// - Parameters:
    ///   - feature: The feature whose state it is.
    ///   - stored: The state as a JSON value (numbers are doubles: an integer above 2^53 is not held exactly).
    ///   - version: The schema version that wrote it.
    /// - Returns: The state, migrated to the feature's current schema version.
    /// - Throws: As for the state's bytes.
    public static func state<F: Feature>(of feature: F.Type, stored: JSONValue, version: Int) throws -> F.State {
        try state(of: feature, stored: stored.json, version: version)
    }

    /// The events `stored` holds (a JSON array, as a journal record keeps them), written by schema `version` of
    /// `feature`, as this build reads them: a pending timer's event, a record replayed.
    /// - Parameters:
    ///   - feature: The feature whose events they are.
    ///   - stored: The events' JSON array.
    ///   - version: The schema version that wrote them.
    /// - Returns: The events, migrated to the feature's current schema version, in their order.
    /// - Throws: ``StoredMigrationError`` when `stored` is not a JSON array or `version` is below 1; otherwise as for a
    ///   state, naming `events[0]`….
    public static func events<F: Feature>(
        of feature: F.Type, stored: some Sequence<UInt8>, version: Int
    ) throws -> [F.Event] {
        try check(version)
        let bytes = Data(stored)
        return try reading("the stored events") {
            guard case .array = try JSONParser.parse([UInt8](bytes), maxDepth: StoredFeatureValues<F>.maxDepth) else {
                throw StoredMigrationError.notJSON(what: "the stored events", reason: "expected an array of events")
            }
            return try StoredFeatureValues<F>.events(json: bytes, version: version)
        }
    }

    /// The events `stored` holds (a JSON array), written by schema `version` of `feature`, as this build reads them.
    /// - Throws: As for the events' bytes.
    public static func events<F: Feature>(of feature: F.Type, stored: JSONValue, version: Int) throws -> [F.Event] {
        try events(of: feature, stored: stored.json, version: version)
    }

    /// A journal export (`GET /v1/sessions/{id}/journal`, NDJSON) read as a server imports it: its header's value
    /// and every record's events migrated from the schema versions they state, each record replayed and checked.
    /// - Parameters:
    ///   - feature: The feature to read.
    ///   - export: The export's bytes.
    ///   - otherFeatures: The other features the export holds (an app's others), which the import must know too.
    ///   - importedAt: The instant it is read at: nothing in the export may lie after it (by default the wall
    ///     clock's now, as a server would read the fixture today).
    /// - Returns: `feature`'s state at the header and at the end, and its records' events, migrated.
    /// - Throws: `JournalImportError` naming the line that does not read back (a migration that fails names the
    ///   feature, the member and the stored version there); ``StoredMigrationError/featureNotInExport(feature:features:)``.
    public static func journal<F: Feature>(
        of feature: F.Type, export: some Sequence<UInt8>, otherFeatures: [any Feature.Type] = [],
        importedAt: Date = Date()
    ) throws -> MigratedJournal<F> {
        let imported = try JournalImport.read(
            Array(export), types: FeatureTypes([F.self] + otherFeatures), now: importedAt)
        guard let base = imported.base.state(of: F.key), let state = imported.final.state(of: F.key) else {
            throw StoredMigrationError.featureNotInExport(feature: F.key.name, features: imported.base.featureNames)
        }
        var events: [F.Event] = []
        for record in imported.records {
            switch record.input {
            case .submission(let name, _, let data, _, _, _, _), .events(let name, _, _, let data),
                .answer(let name, _, _, let data), .delivery(let name, _, _, _, nil, let data):
                // Read back already by the import; read again here only to hand them over typed.
                if name == F.key.name { events += try StoredFeatureValues<F>.events(stored: data) }
            case .timer, .delivery, .introduction, .acknowledgement, .participation:
                // A delivery that introduces a contact carries no event of the feature's; a participation none.
                continue
            }
        }
        return MigratedJournal(base: base, state: state, events: events)
    }

    private static func check(_ version: Int) throws(StoredMigrationError) {
        guard version >= 1 else { throw .notASchemaVersion(version) }
    }

    /// `read`'s value, with a parser's failure said of `what`.
    private static func reading<T>(_ what: String, _ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch let failure as JSONParser.Failure {
            throw StoredMigrationError.notJSON(what: what, reason: failure.description)
        }
    }
}
