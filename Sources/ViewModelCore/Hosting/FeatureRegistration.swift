import Foundation
import ViewHostAPI

/// One feature as an app registers it with ViewHost: the feature's type, the settings it declares, and how it is
/// hosted once those are read. An app's `main` lists its registrations; the library hosts each of them and knows
/// no feature otherwise.
///
/// A feature's author exports its registration beside the feature:
///
/// ```swift
/// extension FeatureRegistration {
///     public static let notes = FeatureRegistration.feature(
///         NotesApp.self, FeatureHosting(initialState: { _ in NotesState() }, page: NotesApp.page))
/// }
/// ```
///
/// and the app serves it: `await ViewHostCommand.run(features: [.notes])`.
public struct FeatureRegistration: Sendable {
    /// The feature's name in URLs and snapshots.
    public let name: String
    /// The feature's schema version (``Feature/schemaVersion``) and the oldest it migrates from.
    public let schema: ClosedRange<Int>
    /// The settings the feature declares (each named under the feature, such as `weather.provider`).
    public let settings: [ConfigurationKey]
    /// The feature's types, for decoding its stored states.
    public let types: FeatureTypes
    private let configure: @Sendable (any FeatureSettings) throws(SettingError) -> any AnyFeatureHosting
    private let summarize: @Sendable (Data) -> String?

    private init<F: Feature>(
        _ feature: F.Type, settings: [ConfigurationKey],
        configure: @escaping @Sendable (any FeatureSettings) throws(SettingError) -> any AnyFeatureHosting
    ) {
        name = F.key.name
        schema = min(F.oldestMigratableVersion, F.schemaVersion)...F.schemaVersion
        self.settings = settings
        types = FeatureTypes([feature])
        self.configure = configure
        summarize = { json in (try? JSONDecoder().decode(F.Snapshot.self, from: json))?.summaryLine }
    }

    /// A feature hosted the same way whatever the configuration.
    public static func feature<F: Feature>(_ feature: F.Type, _ hosting: FeatureHosting<F>) -> FeatureRegistration {
        FeatureRegistration(feature, settings: []) { _ in hosting }
    }

    /// A feature with settings of its own: `configure` reads them (once, at start) and says how it is hosted.
    /// - Parameters:
    ///   - feature: The feature.
    ///   - settings: Its keys, each named under the feature (`weather.provider`), with defaults and meanings.
    ///   - configure: Reads the settings and returns the hosting; throws ``SettingError`` for a bad value.
    /// - Returns: The registration, to hand to the app.
    public static func feature<F: Feature>(
        _ feature: F.Type, settings: [ConfigurationKey],
        configure: @escaping @Sendable (any FeatureSettings) throws(SettingError) -> FeatureHosting<F>
    ) -> FeatureRegistration {
        FeatureRegistration(feature, settings: settings) { values throws(SettingError) in try configure(values) }
    }

    /// The snapshot's one-line summary (`FeatureSnapshot.summaryLine`), from its JSON as served; nil when the JSON
    /// is not this feature's snapshot.
    public func summaryLine(ofSnapshot json: Data) -> String? {
        summarize(json)
    }

    /// How the feature is hosted with `settings`.
    /// - Throws: ``SettingError`` for a setting the feature cannot use.
    public func hosting(with settings: any FeatureSettings) throws(SettingError) -> any AnyFeatureHosting {
        try configure(settings)
    }
}
