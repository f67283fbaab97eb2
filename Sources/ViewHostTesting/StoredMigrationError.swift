/// Why ``StoredMigration`` could not read what it was given, before the feature's types were asked.
public enum StoredMigrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `what` (the stored state, the stored events) is not JSON of the kind it must be: `reason` says why and where.
    case notJSON(what: String, reason: String)
    /// The version is not a schema version: they start at 1.
    case notASchemaVersion(Int)
    /// The export holds no state of the feature: `features` are the ones it holds.
    case featureNotInExport(feature: String, features: [String])

    /// What is wrong, in a sentence naming the value (`2 is not a schema version: …`).
    public var description: String {
        switch self {
        case .notJSON(let what, let reason): "\(what) is not JSON of the kind stored: \(reason)"
        case .notASchemaVersion(let version): "\(version) is not a schema version: they start at 1"
        case .featureNotInExport(let feature, let features):
            "the export holds no feature '\(feature)' (it holds \(features.isEmpty ? "none" : features.joined(separator: ", ")))"
        }
    }
}
