import ChatFeature
import LoginFeature
import PersonFeature
import ViewModelCore
import WeatherFeature

/// The features a session can host, in the order snapshots and links list them.
enum FeatureCatalog {
    /// The feature types a stored session is decoded with.
    static let types = FeatureTypes([ChatApp.self, WeatherApp.self, LoginApp.self, PersonApp.self])

    static func all(configuration: AppConfiguration) -> [FeatureDefinition] {
        [.chat, .weather(configuration: configuration.weather), .login, .person]
    }
}
