/// Why configuration could not be loaded. Each case names the key or file and has a sysexits(3) code, so
/// `viewhost` can exit with one line and the right status.
public enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration file given with `--config` does not exist or cannot be read (`EX_NOINPUT`).
    case unreadableFile(path: String, reason: String)
    /// The file is not a JSON object (`EX_CONFIG`).
    case malformedFile(path: String, reason: String)
    /// The file has a key the server does not know, likely a typo (`EX_CONFIG`).
    case unknownKey(key: String, path: String)
    /// A value has the wrong type or is out of range (`EX_CONFIG`).
    case invalidValue(key: String, source: String, reason: String)
    /// The app registers features that cannot be served together: a name twice, a name a route takes, a
    /// setting outside the feature's name (`EX_CONFIG`).
    case invalidFeatures(reason: String)

    /// The sysexits(3) status to exit with.
    public var exitCode: Int32 {
        switch self {
        case .unreadableFile: 66
        case .malformedFile, .unknownKey, .invalidValue, .invalidFeatures: 78
        }
    }

    /// The one line printed before exiting, naming the file or key, its source and the reason.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            "cannot read configuration file \(path): \(reason)"
        case .malformedFile(let path, let reason):
            "configuration file \(path) is not a valid JSON object: \(reason)"
        case .unknownKey(let key, let path):
            "unknown configuration key '\(key)' in \(path)"
        case .invalidValue(let key, let source, let reason):
            "invalid value for configuration key '\(key)' (\(source)): \(reason)"
        case .invalidFeatures(let reason):
            "cannot serve these features: \(reason)"
        }
    }
}
