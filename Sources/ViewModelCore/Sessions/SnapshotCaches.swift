import ViewHostAPI

/// Per feature, the newest view model and the newest app-level representation (such as encoded JSON), each kept
/// with its version so a newer version never gets an older value. Lives inside the session's lock.
struct SnapshotCaches {
    private var viewModels: [String: (version: Int, value: any ViewModel)] = [:]
    private var representations: [String: (version: Int, sequence: Int, value: any Sendable)] = [:]

    /// The view model of `feature` at `version`, made by `make` at most once per version.
    mutating func viewModel(of feature: String, version: Int, make: () -> any ViewModel) -> any ViewModel {
        if let cached = viewModels[feature], cached.version == version { return cached.value }
        let value = make()
        viewModels[feature] = (version, value)
        return value
    }

    /// The cached representation of `feature` at `version` with the sequence of the step that produced it, if any.
    func representation<Value>(of feature: String, version: Int, as type: Value.Type) -> (sequence: Int, value: Value)? {
        guard let cached = representations[feature], cached.version == version, let value = cached.value as? Value
        else { return nil }
        return (cached.sequence, value)
    }

    /// Keeps the representation of `feature` at `version`, unless a newer one is kept already.
    mutating func keep(_ value: any Sendable, of feature: String, version: Int, sequence: Int) {
        if let cached = representations[feature], cached.version > version { return }
        representations[feature] = (version, sequence, value)
    }
}
