import Foundation

/// What a feature reads its settings with when the app starts: each of its ``ConfigurationKey``s, typed and
/// checked, by the server's precedence (flag, environment, file, the key's default), and the process environment
/// for secrets that have no place in a file.
///
/// Contract: every read of a key the feature did not declare is a programming error; a value of the wrong type or
/// out of range throws ``SettingError`` naming the key, and the server refuses to start with it (exit 78), saying
/// where the value came from.
public protocol FeatureSettings: Sendable {
    /// A string; `check` returns why a value is wrong, or nil. Nil when the key's default is `null` and nothing
    /// sets it.
    func string(_ key: ConfigurationKey, check: (String) -> String?) throws(SettingError) -> String?
    /// An integer within `range`.
    func integer(_ key: ConfigurationKey, in range: ClosedRange<Int>) throws(SettingError) -> Int
    /// A number within `range`.
    func number(_ key: ConfigurationKey, in range: ClosedRange<Double>) throws(SettingError) -> Double
    /// A number of seconds, more than 0 and at most a day.
    func seconds(_ key: ConfigurationKey) throws(SettingError) -> Duration
    /// `true` or `false`.
    func boolean(_ key: ConfigurationKey) throws(SettingError) -> Bool
    /// The process environment's `name`, if set and not empty (for secrets, which are read from there only).
    func environment(_ name: String) -> String?
}

/// Why a feature's setting cannot be used; the server refuses to start (exit 78), naming the key and its source.
public struct SettingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key's dotted path.
    public var key: String
    /// What is wrong, such as "expected one of offline, open-meteo, weatherbit".
    public var reason: String

    /// Creates an error.
    public init(key: String, reason: String) {
        self.key = key
        self.reason = reason
    }

    /// The key's path and the reason.
    public var description: String { "\(key): \(reason)" }
}
