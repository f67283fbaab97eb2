/// Why ``WeatherServices/make(provider:environment:timeout:cacheTTL:retryDelay:now:openMeteoGeocodingURL:openMeteoForecastURL:weatherbitURL:)``
/// refused a configuration. The app layer turns it into a start-up error that names the key.
public enum WeatherConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The provider name is none of `offline`, `open-meteo`, `weatherbit`.
    case unknownProvider(String)
    /// The `weatherbit` provider was chosen but the environment variable holding its key is missing or empty.
    case missingAPIKey(variable: String)

    /// One sentence naming the provider or the variable and what to set.
    public var description: String {
        switch self {
        case .unknownProvider(let name):
            "The weather provider \"\(name)\" is unknown; set weather-provider to offline, open-meteo or weatherbit."
        case .missingAPIKey(let variable):
            "The weatherbit provider needs an API key in the environment variable \(variable)."
        }
    }
}
