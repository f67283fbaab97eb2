import Foundation
import ViewModelCore

extension FeatureRegistration {
    /// The Grados weather view model (seed 004) as an app serves it: a new session starts as the original's
    /// `init()` ("Loading...", then McGaheysville, VA), its provider calls run by the services its settings choose
    /// (``WeatherApp/settings``; the offline gazetteer by default), and the page draws it with ``WeatherApp/page``.
    public static let weather = FeatureRegistration.feature(WeatherApp.self, settings: WeatherApp.settings) {
        settings throws(SettingError) in
        let services = try WeatherApp.services(settings)
        let provider = services.providerName
        return FeatureHosting(
            initialState: { _ in WeatherState(provider: provider) }, startEvents: [.start], requests: services.perform,
            page: WeatherApp.page)
    }
}

extension WeatherApp {
    /// Where weather comes from: `weather.provider` (`--weather-provider`), its timeouts, cache and endpoints; the
    /// Weatherbit key is read from the environment only (`VIEWHOST_WEATHERBIT_KEY`: a secret has no place in a file).
    public static let settings: [ConfigurationKey] = [
        .init(
            path: "weather.provider", kind: .string, defaultJSON: "\"offline\"",
            summary:
                "offline (embedded GeoNames places, synthetic weather), open-meteo, or weatherbit (needs VIEWHOST_WEATHERBIT_KEY).",
            flag: "weather-provider"),
        .init(
            path: "weather.timeoutSeconds", kind: .number, defaultJSON: "5",
            summary: "Time a provider call may take before it counts as failed (one retry follows)."),
        .init(
            path: "weather.cacheSeconds", kind: .number, defaultJSON: "600",
            summary: "How long a provider's answer for one place is reused."),
        .init(
            path: "weather.openMeteoGeocodingURL", kind: .string,
            defaultJSON: "\"\(WeatherServices.openMeteoGeocodingURL.absoluteString)\"",
            summary: "Open-Meteo's geocoding endpoint (for a proxy or mirror)."),
        .init(
            path: "weather.openMeteoForecastURL", kind: .string,
            defaultJSON: "\"\(WeatherServices.openMeteoForecastURL.absoluteString)\"",
            summary: "Open-Meteo's forecast endpoint (for a proxy or mirror)."),
        .init(
            path: "weather.weatherbitURL", kind: .string,
            defaultJSON: "\"\(WeatherServices.weatherbitURL.absoluteString)\"",
            summary: "Weatherbit's current-weather endpoint (for a proxy or mirror)."),
    ]

    /// The services the settings name; one set for the whole process, shared by every session (the gazetteer loads
    /// once).
    /// - Throws: ``SettingError`` for an unknown provider, a URL that is not http(s), or weatherbit without its key.
    static func services(_ settings: any FeatureSettings) throws(SettingError) -> WeatherServices {
        let provider =
            try settings.string(Self.settings[0]) { name in
                WeatherServices.providerNames.contains(name)
                    ? nil : "expected one of \(WeatherServices.providerNames.joined(separator: ", "))"
            } ?? "offline"
        let timeout = try settings.seconds(Self.settings[1])
        let cacheTTL = try settings.seconds(Self.settings[2])
        let isURL: (String) -> String? = { text in
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                return "expected an http or https URL"
            }
            return nil
        }
        var urls: [URL] = []
        for key in Self.settings[3...5] {
            let text = try settings.string(key, check: isURL) ?? ""
            guard let url = URL(string: text) else {
                throw SettingError(key: key.path, reason: "expected an http or https URL")
            }
            urls.append(url)
        }
        var environment: [String: String] = [:]
        environment[WeatherServices.weatherbitKeyVariable] = settings.environment(WeatherServices.weatherbitKeyVariable)
        do throws(WeatherConfigurationError) {
            return try WeatherServices.make(
                provider: provider, environment: environment, timeout: timeout, cacheTTL: cacheTTL,
                openMeteoGeocodingURL: urls[0], openMeteoForecastURL: urls[1], weatherbitURL: urls[2])
        } catch {
            let reason =
                switch error {
                case .missingAPIKey(let variable):
                    "weatherbit needs the API key in the environment variable \(variable)"
                case .unknownProvider: "expected one of \(WeatherServices.providerNames.joined(separator: ", "))"
                }
            throw SettingError(key: Self.settings[0].path, reason: reason)
        }
    }
}
