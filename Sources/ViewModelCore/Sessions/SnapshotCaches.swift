import ViewHostAPI

/// Per feature, the newest view model and the newest app-level representation (such as encoded JSON), each kept
/// with its version so a newer version never gets an older value. Lives inside the session's lock.
struct SnapshotCaches {
    private var viewModels: [String: (version: Int, value: any ViewModel)] = [:]
    private var representations: [String: (version: Int, sequence: Int, value: any Sendable)] = [:]

    /// The cached view model of `feature` at `version`, if any.
    func viewModel(of feature: String, version: Int) -> (any ViewModel)? {
        guard let cached = viewModels[feature], cached.version == version else { return nil }
        return cached.value
    }

    /// Keeps the view model of `feature` at `version` (made outside the session's lock), unless a newer one is kept
    /// already.
    mutating func keepViewModel(_ value: any ViewModel, of feature: String, version: Int) {
        if let cached = viewModels[feature], cached.version > version { return }
        viewModels[feature] = (version, value)
    }

    /// The cached representation of `feature` at `version` with the sequence of the step that produced it, if any.
    func representation(of feature: String, version: Int) -> (sequence: Int, value: any Sendable)? {
        guard let cached = representations[feature], cached.version == version else { return nil }
        return (cached.sequence, cached.value)
    }

    /// Keeps the representation of `feature` at `version`, unless a newer one is kept already.
    mutating func keep(_ value: any Sendable, of feature: String, version: Int, sequence: Int) {
        if let cached = representations[feature], cached.version > version { return }
        representations[feature] = (version, sequence, value)
    }
}
