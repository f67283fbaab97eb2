import ViewHostAPI

/// Builds the snapshot of one version of a feature, as the state was when the version was made: what an observer of
/// new versions (a test host, a session's recorders, a past version's rebuild) is handed. `builder()` is the owner's
/// view (the one every viewer sees, for a feature that does not depend on its viewer); `builder(for: viewer)` the
/// one `viewer` sees, for a ``ViewerDependentFeature``. Nothing is built until it is called.
public struct SnapshotBuilder: Sendable {
    private let make: @Sendable (Viewer) -> any ViewModel

    /// A builder that makes the snapshot `viewer` sees with `make`.
    public init(_ make: @escaping @Sendable (Viewer) -> any ViewModel) {
        self.make = make
    }

    /// The owner's view.
    public func callAsFunction() -> any ViewModel { make(.owner) }

    /// The view of `viewer`.
    public func callAsFunction(for viewer: Viewer) -> any ViewModel { make(viewer) }
}
