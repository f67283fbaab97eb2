/// A session's features in their initial states, made once and shared: every ``SessionCore`` made from the same
/// value holds the same slots (and the same list of names) until it changes a feature, when only that feature's
/// state is copied. An app that makes many sessions with the same features and settings makes this once for them
/// (the `viewhost` registry keeps one per feature list and settings), so an idle session holds no state of a
/// feature it has not changed, and a memory store's history holds its session's creation for nothing.
public struct InitialFeatures: Sendable {
    let slots: [any AnyFeatureSlot]
    /// The feature names, in order.
    public let names: [String]
    /// The settings these were made for, shared by every core made with them.
    private let settings: SharedSettings?

    /// The features of `features`, in order.
    public init(_ features: [InitialFeature]) {
        self.init(features, shared: nil)
    }

    /// The features of `features`, in order, for sessions made with `settings`: those sessions share one copy of
    /// the settings too.
    public init(_ features: [InitialFeature], settings: SessionSettings) {
        self.init(features, shared: SharedSettings(settings))
    }

    private init(_ features: [InitialFeature], shared settings: SharedSettings?) {
        slots = features.map(\.slot)
        names = slots.map(\.name)
        self.settings = settings
    }

    /// `settings` as a core made from these keeps them: the shared copy when they are the ones these were made
    /// for, else a copy of its own.
    func sharedSettings(for settings: SessionSettings) -> SharedSettings {
        if let shared = self.settings, shared.value == settings { return shared }
        return SharedSettings(settings)
    }
}

/// A session's settings, kept once: the core's copies, the session and the cores of other sessions made with the
/// same settings hold a reference (8 bytes) instead of the value (48).
final class SharedSettings: Sendable {
    let value: SessionSettings

    init(_ value: SessionSettings) {
        self.value = value
    }
}
