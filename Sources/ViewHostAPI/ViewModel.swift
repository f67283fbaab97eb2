/// ViewHostAPI is the generic wire core of ViewHost: what every feature's wire types are made of (``ViewModel``,
/// ``FeatureSnapshot``, ``FeatureIntent``, ``ActionDescriptor``, ``TextLimit``), and nothing of any feature. Each
/// feature keeps its own snapshot and intents in a module of its own (the seed's are `ChatAPI`, `WeatherAPI`,
/// `LoginAPI` and `PersonAPI`) that the server's feature and an app share: one definition serves both sides, so a
/// renamed field breaks the build or a test, not an app. It depends on Foundation only, and compiles on Linux and
/// on Apple platforms.
///
/// A view model: an immutable value a screen renders, encoded as (part of) a snapshot's JSON.
public protocol ViewModel: Codable, Equatable, Sendable {}

/// A feature's whole snapshot document, as `GET /v1/sessions/{id}/{feature}` serves it (the server adds
/// `feature` and `version` beside these members).
public protocol FeatureSnapshot: ViewModel {
    /// The feature's name in URLs and snapshots, such as `chat`: written here once, and read by the feature, its
    /// intents and the server from here.
    static var feature: String { get }

    /// One line for people saying what the snapshot shows (`viewhost client watch` prints it per change), such as
    /// `Paris, France: Light rain - 46℉ (ready)`; empty for a generic line made from the snapshot's values.
    var summaryLine: String { get }
}

extension FeatureSnapshot {
    /// Empty: a generic line is made from the snapshot's values.
    public var summaryLine: String { "" }
}
