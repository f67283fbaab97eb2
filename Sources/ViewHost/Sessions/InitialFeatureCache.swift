import ViewHostLocking
import ViewModelCore

/// The initial features of new sessions, made once per feature list and settings and shared by every session made
/// with them (`InitialFeatures`): a new session holds no copy of a feature's state until it changes it. Settings
/// come partly from clients (time zone, locale), so the cache is bounded: past `limit` lists it starts again.
/// A feature's `initialState` is a function of the settings (FeatureHosting), so sharing its value changes nothing
/// a session sees.
final class InitialFeatureCache: Sendable {
    private struct Key: Hashable {
        let names: [String]
        let settings: SessionSettings
    }

    private let limit: Int
    private let made = Locked<[Key: InitialFeatures]>([:])

    /// A cache of at most `limit` lists.
    init(limit: Int = 64) {
        self.limit = max(1, limit)
    }

    /// The initial features of `definitions` under `settings`, made by `make` once per pair.
    func features(
        of definitions: [FeatureDefinition], settings: SessionSettings, make: () -> InitialFeatures
    ) -> InitialFeatures {
        let key = Key(names: definitions.map(\.name), settings: settings)
        if let known = made.withLock({ $0[key] }) { return known }
        let features = make()
        made.withLock { made in
            if made.count >= limit { made.removeAll() }
            made[key] = features
        }
        return features
    }
}
