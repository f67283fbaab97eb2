import Configuration
import Foundation
import ViewHostJSON
import ViewModelCore

/// The server's keys read by type: each through swift-configuration's provider chain, checked against its range or
/// its own check, and named with its source when refused.
extension ValueLoader {
    /// The integer at `path` (`value` when nothing sets it), which must be within `range`.
    func integer(_ path: String, default value: Int, in range: ClosedRange<Int>) throws(ConfigurationError)
        -> Int
    {
        try ranged(path, default: value, in: range, expected: "expected an integer") { key in
            try reader.requiredInt(forKey: key)
        }
    }

    func seconds(_ path: String, default value: Duration, atMost limit: Double = 86_400) throws(ConfigurationError)
        -> Duration
    {
        guard let source = source(of: path) else {
            let (seconds, attoseconds) = value.components
            defaultsRead.record(path, .number(Double(seconds) + Double(attoseconds) / 1e18))
            return value
        }
        let result: Double
        do { result = try reader.requiredDouble(forKey: ConfigKey(path)) } catch {
            throw .invalidValue(key: path, source: source, reason: "expected a number of seconds")
        }
        guard result > 0, result <= limit else {
            throw .invalidValue(
                key: path, source: source, reason: "\(result) is not between 0 (exclusive) and \(Int(limit))")
        }
        return .milliseconds(Int64((result * 1000).rounded()))
    }

    /// The number at `path` (`value` when nothing sets it), which must be within `range`.
    func number(_ path: String, default value: Double, in range: ClosedRange<Double>) throws(ConfigurationError)
        -> Double
    {
        try ranged(path, default: value, in: range, expected: "expected a number") { key in
            try reader.requiredDouble(forKey: key)
        }
    }

    /// The value at `path` as `read` reads it (`value` when nothing sets it), which must be within `range`; a value
    /// `read` refuses is `expected` (what it should have been), one out of range names the range.
    private func ranged<Value: Comparable & CustomStringConvertible>(
        _ path: String, default value: Value, in range: ClosedRange<Value>, expected: String,
        read: (ConfigKey) throws -> Value
    ) throws(ConfigurationError) -> Value {
        guard let source = source(of: path) else {
            defaultsRead.record(path, Self.json(value))
            return value
        }
        let result: Value
        do { result = try read(ConfigKey(path)) } catch {
            throw .invalidValue(key: path, source: source, reason: expected)
        }
        guard range.contains(result) else {
            throw .invalidValue(
                key: path, source: source, reason: "\(result) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return result
    }

    func stringList(
        _ path: String, default value: [String], check: (String) -> String?
    ) throws(ConfigurationError) -> [String] {
        guard let source = source(of: path) else {
            defaultsRead.record(path, .array(value.map(JSONValue.string)))
            return value
        }
        var result: [String]
        do { result = try reader.requiredStringArray(forKey: ConfigKey(path)) } catch {
            throw .invalidValue(key: path, source: source, reason: "expected a list of strings")
        }
        // `VAR=` or `VAR=a, b` in the environment: blanks around items and empty items mean nothing.
        result = result.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for item in result {
            if let problem = check(item) { throw .invalidValue(key: path, source: source, reason: problem) }
        }
        return result
    }

    func boolean(_ path: String, default value: Bool) throws(ConfigurationError) -> Bool {
        guard let source = source(of: path) else {
            defaultsRead.record(path, .bool(value))
            return value
        }
        do { return try reader.requiredBool(forKey: ConfigKey(path)) } catch {
            throw .invalidValue(key: path, source: source, reason: "expected true or false")
        }
    }

    func string(
        _ path: String, default value: String, check: (String) -> String?
    ) throws(ConfigurationError) -> String {
        guard let source = source(of: path) else {
            defaultsRead.record(path, .string(value))
            return value
        }
        let result: String
        do { result = try reader.requiredString(forKey: ConfigKey(path)) } catch {
            throw .invalidValue(key: path, source: source, reason: "expected a string")
        }
        if let problem = check(result) { throw .invalidValue(key: path, source: source, reason: problem) }
        return result
    }

    /// A ranged default as JSON: a number.
    private static func json<Value: CustomStringConvertible>(_ value: Value) -> JSONValue {
        switch value {
        case let integer as Int: .number(Double(integer))
        case let number as Double: .number(number)
        default: .string(value.description)
        }
    }

    /// Where the value of `path` comes from, by precedence; nil when only the default applies.
    func source(of path: String) -> String? {
        guard let key = keys[path] else { return nil }
        if sources.flags[path] != nil { return "command-line flag" }
        if sources.environment[key.environmentName] != nil { return "environment \(key.environmentName)" }
        if fileKeys.contains(path) { return sources.filePath }
        return nil
    }
}
