import Foundation

/// A feature's stored data (its slot in a session's value, or a journal record's events) that this build does not
/// decode: the feature, the member, the schema version it was stored by and what is wrong, in place of Foundation's
/// "The data couldn't be read because it is missing.". At this build's own version it is a change of the feature's
/// stored shape made without a new ``Feature/schemaVersion`` (one the start did not find, ``StoredShape``); at an
/// older one, a migration that does not read what it migrates. Retrying never helps: a server answers `500`.
public struct StoredFeatureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The feature, such as `todo`.
    public var feature: String
    /// The member, from the feature's part of the stored value: `state.items[0].priority`, `events[0]`.
    public var field: String
    /// The schema version the data was stored by.
    public var storedVersion: Int
    /// This build's schema version of the feature.
    public var currentVersion: Int
    /// What is wrong with the member, after its name: "is missing", "is not a string". Never a stored value (a
    /// decoder's own words may quote one, and what users typed is not logged or answered).
    public var reason: String

    /// Creates an error.
    public init(feature: String, field: String, storedVersion: Int, currentVersion: Int, reason: String) {
        self.feature = feature
        self.field = field
        self.storedVersion = storedVersion
        self.currentVersion = currentVersion
        self.reason = reason
    }

    /// `error` said of feature `feature`'s data stored by `storedVersion`, when it is a `DecodingError`; nil for
    /// anything else (a ``SchemaError``, an error of the feature's own migration, one already said).
    /// - Parameters:
    ///   - error: What the decoder threw.
    ///   - feature: The feature whose data it is.
    ///   - storedVersion: The schema version the data was stored by.
    ///   - base: The coding path where the feature's part begins (the slot, the record's events).
    ///   - prefix: The name of that part in ``field`` (`events`); empty for a slot, whose members name themselves.
    init?<F: Feature>(
        _ error: any Error, of feature: F.Type, storedVersion: Int, base: [any CodingKey], prefix: String = ""
    ) {
        guard let error = error as? DecodingError else { return nil }
        let path: [any CodingKey]
        let reason: String
        switch error {
        case .keyNotFound(let key, let found):
            (path, reason) = (found.codingPath + [key], "is missing")
        case .valueNotFound(_, let found):
            (path, reason) = (found.codingPath, "is null")
        case .typeMismatch(let type, let found):
            (path, reason) = (found.codingPath, "is not \(Self.kind(of: type))")
        case .dataCorrupted(let found):
            (path, reason) = (found.codingPath, "holds a value this build does not read")
        @unknown default:
            return nil
        }
        let relative =
            path.starts(with: base, by: { $0.stringValue == $1.stringValue }) ? Array(path.dropFirst(base.count)) : path
        self.init(
            feature: F.key.name, field: Self.field(relative, prefix: prefix), storedVersion: storedVersion,
            currentVersion: F.schemaVersion, reason: reason)
    }

    /// What is wrong, without a guess at why: for data from outside (a journal export), which no build of the
    /// feature need have written.
    var summary: String {
        "feature '\(feature)': \(field) \(reason) (schema version \(storedVersion))"
    }

    /// One line naming the feature, the member, the stored version and what is wrong, with a hint when the schema
    /// version did not change; for the log and the `500` detail.
    public var description: String {
        "feature '\(feature)' does not decode \(field) stored by schema version \(storedVersion): it \(reason)"
            + (storedVersion == currentVersion
                ? " (its stored shape changed without a new schemaVersion?)"
                : " (migrating it to schema version \(currentVersion) failed)")
    }

    /// `path` as a member's name: `items[0].priority`, after `prefix` when there is one.
    static func field(_ path: [any CodingKey], prefix: String) -> String {
        var field = prefix
        for (index, key) in path.enumerated() {
            if let number = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(number) {
                field += "[\(number)]"
            } else if index == 0, key.stringValue == prefix {
                continue  // `{"schema":2,"events":[…]}`: the record's events, named already
            } else {
                field += (field.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return field.isEmpty ? "the value" : field
    }

    /// What JSON a decoder wanted for `type`, in words.
    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is any BinaryInteger.Type, is any BinaryFloatingPoint.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "a \(type)"
        }
    }
}
