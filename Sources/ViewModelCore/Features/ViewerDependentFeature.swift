/// A feature whose snapshot depends on who is looking: "your votes left: 2", "added by you: 3". It writes
/// ``Feature/snapshot(of:settings:viewer:)``, and saying `ViewerDependentFeature` instead of `Feature` is the one
/// fact the host needs: it then makes each version's snapshot per viewer (the owner's, and each member's, as its
/// credential names it), and the viewer is part of what it caches, of the `ETag`, of the base of a patch and of a
/// past version read. A plain ``Feature`` is never asked who looks and costs nothing more: one snapshot per version,
/// encoded once, for every reader.
///
/// The view is still a pure function, of the state and the viewer: a version's snapshot for one viewer never
/// changes, so it can be read again from history. ``Feature/snapshot(of:settings:)`` is the owner's view (what an
/// export's digest and a test host read); it is written for you.
///
/// ```swift
/// enum Board: ViewerDependentFeature {
///     // … State records who added each item (FeatureContext.participant) …
///     static func snapshot(of state: BoardState, settings: SessionSettings, viewer: Viewer) -> BoardSnapshot {
///         BoardSnapshot(items: state.items, addedByYou: state.items.count { $0.by == viewer.participant })
///     }
/// }
/// ```
public protocol ViewerDependentFeature: Feature {
    /// The snapshot of the state as `viewer` sees it, for a session with `settings`. Required: a feature that
    /// depends on its viewer says how.
    static func snapshot(of state: State, settings: SessionSettings, viewer: Viewer) -> Snapshot
}

extension ViewerDependentFeature {
    /// The owner's view: ``snapshot(of:settings:viewer:)`` for ``Viewer/owner``.
    public static func snapshot(of state: State, settings: SessionSettings) -> Snapshot {
        snapshot(of: state, settings: settings, viewer: .owner)
    }

    /// Never a witness: without it, ``Feature``'s default (which calls ``snapshot(of:settings:)``) would satisfy the
    /// requirement, and a feature that wrote neither would compile and call itself forever. With it, such a feature
    /// does not compile, and the message says what to write.
    @available(
        *, unavailable,
        message: "a ViewerDependentFeature writes snapshot(of:settings:viewer:), the snapshot each viewer sees"
    )
    public static func snapshot(of state: State, settings: SessionSettings, viewer: Viewer) -> Snapshot {
        fatalError("unavailable")
    }
}
