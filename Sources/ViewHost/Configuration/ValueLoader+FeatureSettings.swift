import ViewModelCore

/// A feature's settings, read like the server's own keys: by precedence, defaults from the key.
extension ValueLoader {
    func string(_ key: ConfigurationKey, check: (String) -> String?) throws(SettingError) -> String? {
        let fallback = key.defaultValue(as: String?.self) ?? nil
        guard source(of: key.path) != nil else { return fallback }
        return try setting(key) { () throws(ConfigurationError) in try string(key.path, default: "", check: check) }
    }

    func integer(_ key: ConfigurationKey, in range: ClosedRange<Int>) throws(SettingError) -> Int {
        let fallback = key.defaultValue(as: Int.self) ?? range.lowerBound
        return try setting(key) { () throws(ConfigurationError) in try integer(key.path, default: fallback, in: range) }
    }

    func number(_ key: ConfigurationKey, in range: ClosedRange<Double>) throws(SettingError) -> Double {
        let fallback = key.defaultValue(as: Double.self) ?? range.lowerBound
        return try setting(key) { () throws(ConfigurationError) in try number(key.path, default: fallback, in: range) }
    }

    func seconds(_ key: ConfigurationKey) throws(SettingError) -> Duration {
        let fallback = key.defaultValue(as: Double.self) ?? 1
        return try setting(key) { () throws(ConfigurationError) in
            try seconds(key.path, default: .milliseconds(Int64((fallback * 1000).rounded())))
        }
    }

    func boolean(_ key: ConfigurationKey) throws(SettingError) -> Bool {
        let fallback = key.defaultValue(as: Bool.self) ?? false
        return try setting(key) { () throws(ConfigurationError) in try boolean(key.path, default: fallback) }
    }

    func environment(_ name: String) -> String? {
        sources.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A read of one of the feature's keys, its error as the feature's.
    private func setting<Value>(_ key: ConfigurationKey, _ read: () throws(ConfigurationError) -> Value)
        throws(SettingError) -> Value
    {
        precondition(keys[key.path] != nil, "setting \(key.path) was not declared by its feature")
        do {
            return try read()
        } catch {
            if case .invalidValue(_, _, let reason) = error { throw SettingError(key: key.path, reason: reason) }
            throw SettingError(key: key.path, reason: error.description)
        }
    }
}
