import Foundation
import WeatherAPI
import ViewHostAPI
import ViewModelCore
import WeatherFeature

extension FeatureDefinition {
    /// The Grados weather view model (seed 004): `changeLocation[location]`, decoded as a ``WeatherIntent``. A new
    /// session starts as the original's `init()`: "Loading...", then McGaheysville, VA.
    static func weather(configuration: AppConfiguration.Weather) -> FeatureDefinition {
        let services = Self.weatherServices(configuration)
        let provider = services.providerName
        return FeatureDefinition.define(
            WeatherApp.key, eventTypes: WeatherIntent.types, initialState: { WeatherState(provider: provider) },
            requestRunner: services.requestRunner, startEvents: [.start]
        ) { _, fields throws(EventDecodingError) in
            try fields.onlyFields(["location"])
            return WeatherApp.event(for: .changeLocation(location: try fields.string("location", limit: .location)))
        }
    }

    /// One set of providers for the whole process, shared by every session (the gazetteer loads once).
    /// Configuration loading has already refused bad provider settings, so this cannot fail.
    private static func weatherServices(_ configuration: AppConfiguration.Weather) -> WeatherServices {
        guard configuration.provider != "offline" else { return .offline }
        var environment: [String: String] = [:]
        environment[WeatherServices.weatherbitKeyVariable] = configuration.weatherbitKey
        do {
            return try WeatherServices.make(
                provider: configuration.provider, environment: environment, timeout: configuration.timeout,
                cacheTTL: configuration.cacheTTL,
                openMeteoGeocodingURL: URL(string: configuration.openMeteoGeocodingURL)!,
                openMeteoForecastURL: URL(string: configuration.openMeteoForecastURL)!,
                weatherbitURL: URL(string: configuration.weatherbitURL)!)
        } catch {
            preconditionFailure("weather settings were validated when the configuration loaded: \(error)")
        }
    }
}
