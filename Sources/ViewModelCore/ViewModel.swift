/// ViewModelCore is the MVVM plumbing between features and the app: per-session feature models, immutable and
/// versioned snapshots, timers that deliver events, and the data-flow log. It knows no HTTP and no particular
/// feature: features depend on it, and AppServer maps it onto routes. Nothing here sees a socket or a
/// `DispatchQueue`.
///
/// A view model: an immutable value a screen renders, encoded as the snapshot JSON.
public protocol ViewModel: Encodable, Equatable, Sendable {}
