import Foundation

/// Feature settings given in code: each key's default unless `values` sets it (as text, the way an environment
/// variable does). For tests, tools and apps made in code, where no configuration file or environment is read.
///
/// ```swift
/// let hosting = try FeatureRegistration.weather.hosting(with: FixedFeatureSettings(["weather.provider": "offline"]))
/// ```
public struct FixedFeatureSettings: FeatureSettings {
    private let values: [String: String]
    private let variables: [String: String]

    /// Settings with `values` (by key path, as text) and the environment `variables`; every other key at its default.
    public init(_ values: [String: String] = [:], environment variables: [String: String] = [:]) {
        self.values = values
        self.variables = variables
    }

    /// The value given for `key`, checked with `check`; without one, the key's default.
    public func string(_ key: ConfigurationKey, check: (String) -> String?) throws(SettingError) -> String? {
        guard let text = values[key.path] else { return key.defaultValue(as: String?.self) ?? nil }
        if let problem = check(text) { throw SettingError(key: key.path, reason: problem) }
        return text
    }

    /// The value given for `key` (or its default, or the range's lower bound), which must be an integer within `range`.
    public func integer(_ key: ConfigurationKey, in range: ClosedRange<Int>) throws(SettingError) -> Int {
        try ranged(key, in: range, expected: "expected an integer") { Int($0) }
    }

    /// The value given for `key` (or its default, or the range's lower bound), which must be a number within `range`.
    public func number(_ key: ConfigurationKey, in range: ClosedRange<Double>) throws(SettingError) -> Double {
        try ranged(key, in: range, expected: "expected a number") { Double($0) }
    }

    /// The value given for `key` as `read` reads its text (or the key's default, or the range's lower bound), which
    /// must be within `range`; text `read` refuses is `expected` (what it should have been).
    private func ranged<Value: Decodable & Comparable & CustomStringConvertible>(
        _ key: ConfigurationKey, in range: ClosedRange<Value>, expected: String, read: (String) -> Value?
    ) throws(SettingError) -> Value {
        let value =
            try values[key.path].map { text throws(SettingError) in
                guard let value = read(text) else { throw SettingError(key: key.path, reason: expected) }
                return value
            } ?? key.defaultValue(as: Value.self) ?? range.lowerBound
        guard range.contains(value) else {
            throw SettingError(key: key.path, reason: "\(value) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// The value given for `key` as seconds, 0.001 to a day, rounded to the millisecond.
    public func seconds(_ key: ConfigurationKey) throws(SettingError) -> Duration {
        let seconds = try number(key, in: 0.001...86_400)
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// The value given for `key`, `true` or `false`; without one, the key's default (false when it has none).
    public func boolean(_ key: ConfigurationKey) throws(SettingError) -> Bool {
        guard let text = values[key.path] else { return key.defaultValue(as: Bool.self) ?? false }
        guard let value = Bool(text) else { throw SettingError(key: key.path, reason: "expected true or false") }
        return value
    }

    /// The variable `name` of the environment given, when it is set and not empty.
    public func environment(_ name: String) -> String? {
        variables[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
