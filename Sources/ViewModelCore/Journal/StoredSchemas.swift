import Foundation

/// Which schema versions (``Feature/schemaVersion``) of each feature a store's sessions may hold: what a build must
/// be able to read before it serves them. A store keeps it beside its sessions, so a server checks it at start, in
/// a moment whatever the number of sessions, instead of finding a session it cannot read when a client asks for it.
///
/// What a store keeps is a bound: every build that opened the store adds its own versions, and nothing is taken out
/// when sessions are migrated or removed. So when the kept bound fails ``FeatureTypes/check(_:)``, the store reads
/// every stored value and journal record (``add(storedValue:)``, ``add(input:)``) for the exact answer before it
/// refuses to start.
public struct StoredSchemas: Equatable, Sendable, CustomStringConvertible {
    /// The oldest and newest version of each feature, by name.
    public private(set) var versions: [String: ClosedRange<Int>]

    /// The given versions (none by default).
    public init(_ versions: [String: ClosedRange<Int>] = [:]) {
        self.versions = versions
    }

    /// Adds `version` of `feature`.
    public mutating func add(_ feature: String, version: Int) {
        add(feature, versions: version...version)
    }

    /// Adds `versions` of `feature`.
    public mutating func add(_ feature: String, versions added: ClosedRange<Int>) {
        guard let kept = versions[feature] else {
            versions[feature] = added
            return
        }
        versions[feature] = min(kept.lowerBound, added.lowerBound)...max(kept.upperBound, added.upperBound)
    }

    /// These versions and `other`'s.
    public func merging(_ other: StoredSchemas) -> StoredSchemas {
        var merged = self
        for (feature, range) in other.versions { merged.add(feature, versions: range) }
        return merged
    }

    /// Adds the features of one stored session value (a ``SessionCore`` as JSON), each at the schema version its
    /// slot records (1 when it records none: data stored before schema versions existed).
    /// - Throws: When `json` is not a stored session value.
    public mutating func add(storedValue json: Data) throws {
        guard let value = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            let features = value["features"] as? [[String: Any]]
        else { throw StoredSchemasError.notAStoredValue }
        for feature in features {
            guard let name = feature["name"] as? String else { throw StoredSchemasError.notAStoredValue }
            let slot = feature["slot"] as? [String: Any]
            add(name, version: (slot?["schema"] as? Int) ?? 1)
        }
    }

    /// Adds the feature of one journal input, at the schema version its events were recorded with (a timer's input
    /// names no feature: its event is in the session's value).
    public mutating func add(input: SessionInput) {
        switch input {
        case .submission(let feature, _, let events, _, _, _, _), .events(let feature, _, _, let events),
            .answer(let feature, _, _, let events), .delivery(let feature, _, _, _, nil, let events):
            add(feature, version: Self.schema(ofEvents: events))
        case .timer, .delivery, .introduction, .acknowledgement, .participation:
            break
        }
    }

    /// Each feature with its schema version or range of versions, sorted by name, for a message about them.
    public var description: String {
        versions.sorted { $0.key < $1.key }
            .map {
                "\($0.key) \($0.value.lowerBound == $0.value.upperBound ? "\($0.value.lowerBound)" : "\($0.value)")"
            }
            .joined(separator: ", ")
    }

    /// A journal record's events are a bare array at schema version 1, else `{"schema":N,"events":[…]}`.
    private static func schema(ofEvents data: Data) -> Int {
        guard data.first(where: { !$0.isWhitespace }) == UInt8(ascii: "{"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return 1 }
        return object["schema"] as? Int ?? 1
    }
}

/// Why stored bytes could not be read for their schema versions.
public enum StoredSchemasError: Error, Equatable, Sendable {
    /// The bytes are not a stored session value.
    case notAStoredValue
}

extension FeatureTypes {
    /// Every registered feature at this build's own schema version: what the store holds once this build writes.
    public var written: StoredSchemas {
        StoredSchemas(schemas.mapValues { $0.upperBound...$0.upperBound })
    }

    /// Refuses stored data this build cannot read: a feature it does not register, a version newer than the
    /// feature's, or one older than the feature migrates from. Checked in name order, so the message is the same
    /// every time.
    /// - Throws: ``SchemaError`` naming the feature and the version.
    public func check(_ stored: StoredSchemas) throws(SchemaError) {
        for (feature, range) in stored.versions.sorted(by: { $0.key < $1.key }) {
            try check(feature: feature, schema: range.upperBound)
            try check(feature: feature, schema: range.lowerBound)
        }
    }
}

extension FeatureTypes {
    /// Refuses a change of `feature`'s stored shape made without a new schema version: `kept` is the shape a store
    /// recorded (``StoredShape/text``) with the feature's newest schema version there, `version`. When this build
    /// reads the feature at that same version and its shape no longer reads values of the kept one, the store's
    /// sessions of that version would fail one by one as clients ask for them. A shape kept in another format, or
    /// not a shape, is not compared (it is replaced when the store records this build's).
    /// - Throws: ``SchemaError/shapeChanged(feature:version:change:)`` naming the member that changed.
    public func checkShape(of feature: String, kept: String, version: Int) throws(SchemaError) {
        guard schemas[feature]?.upperBound == version, let stored = StoredShape(text: kept),
            let change = shape(of: feature)?.breakingChange(from: stored)
        else { return }
        throw .shapeChanged(feature: feature, version: version, change: change)
    }
}

extension UInt8 {
    fileprivate var isWhitespace: Bool {
        self == UInt8(ascii: " ") || self == UInt8(ascii: "\n") || self == UInt8(ascii: "\t")
            || self == UInt8(ascii: "\r")
    }
}
