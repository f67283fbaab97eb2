import Foundation

/// One configuration key: its dotted path in the configuration file, its type, default and meaning, and the
/// command-line flag that sets it, if any.
///
/// The server's own keys are the ViewHost library's list; a feature declares its settings as keys of its own
/// (``FeatureRegistration/feature(_:settings:configure:)``), named under the feature (`weather.provider`). The
/// server reads every key the same way, by precedence: flag, then the `VIEWHOST_*` environment variable
/// (``environmentName``), then the file, then ``defaultJSON``; an unknown key in the file is an error.
public struct ConfigurationKey: Sendable, Hashable {
    /// The kind of value a key holds.
    public enum Kind: String, Sendable {
        /// A JSON integer.
        case integer
        /// A JSON number (seconds take fractions).
        case number
        /// `true` or `false`.
        case boolean
        /// A JSON string.
        case string
        /// A JSON array of strings (a comma-separated list in the environment).
        case stringList
    }

    /// The dotted path, such as `limits.maxBodyBytes`.
    public let path: String
    /// The kind of value.
    public let kind: Kind
    /// The default, as written in JSON.
    public let defaultJSON: String
    /// One sentence on what it does.
    public let summary: String
    /// The `serve` flag that sets it (`weather-provider` for `--weather-provider`), if it has one.
    public let flag: String?

    /// Creates a key.
    /// - Parameters:
    ///   - path: The dotted path, such as `weather.provider`.
    ///   - kind: The kind of value.
    ///   - defaultJSON: The default as JSON (`"\"offline\""`, `5`, `null`).
    ///   - summary: One sentence on what it does.
    ///   - flag: The `serve` flag that sets it, without the dashes.
    public init(path: String, kind: Kind, defaultJSON: String, summary: String, flag: String? = nil) {
        self.path = path
        self.kind = kind
        self.defaultJSON = defaultJSON
        self.summary = summary
        self.flag = flag
    }

    /// The environment variable that overrides it: `VIEWHOST_` and the path in upper snake case
    /// (`limits.maxBodyBytes` → `VIEWHOST_LIMITS_MAX_BODY_BYTES`).
    public var environmentName: String {
        var name = "VIEWHOST"
        for component in path.split(separator: ".") {
            name += "_"
            var previousWasLower = false
            for character in component {
                if character.isUppercase, previousWasLower { name += "_" }
                name += character.uppercased()
                previousWasLower = character.isLowercase || character.isNumber
            }
        }
        return name
    }
}

extension ConfigurationKey {
    /// ``defaultJSON`` as a `Value`; nil when it does not decode as one (`null`, or another type).
    public func defaultValue<Value: Decodable>(as type: Value.Type) -> Value? {
        try? JSONDecoder().decode(Value.self, from: Data(defaultJSON.utf8))
    }
}
