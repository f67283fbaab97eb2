/// A session's features in their initial states, made once and shared: every ``SessionCore`` made from the same
/// value holds the same slots (and the same list of names) until it changes a feature, when only that feature's
/// state is copied. An app that makes many sessions with the same features and settings makes this once for them
/// (the `viewhost` registry keeps one per feature list and settings), so an idle session holds no state of a
/// feature it has not changed, and a memory store's history holds its session's creation for nothing.
public struct InitialFeatures: Sendable {
    let slots: [any AnyFeatureSlot]
    /// The feature names, in order.
    public let names: [String]

    /// The features of `features`, in order.
    public init(_ features: [InitialFeature]) {
        slots = features.map(\.slot)
        names = slots.map(\.name)
    }
}
