import Foundation

/// The process's geocoder and weather provider, chosen once from configuration (`--weather-provider`) and shared
/// by every session's ``WeatherApp``: one instance per process, so 100,000 sessions cost nothing extra.
///
/// | name | geocoding | weather |
/// |---|---|---|
/// | `offline` (default) | the embedded GeoNames gazetteer | ``OfflineClimate``'s made-up weather |
/// | `open-meteo` | Open-Meteo geocoding | Open-Meteo forecast (`current=`), WMO codes as Weatherbit icons |
/// | `weatherbit` | Open-Meteo geocoding | Weatherbit `current`, `units=I`, key from `VIEWHOST_WEATHERBIT_KEY` |
///
/// Weatherbit's own city lookup is not used for geocoding: it comes only inside a weather call (no separate list of
/// matches to choose from, so no "Not found" and no qualifier filtering), while the original geocodes first and
/// then fetches by coordinates; Open-Meteo's is keyless and gives time zones.
public struct WeatherServices: Sendable {
    /// Finds places.
    public let geocoder: any Geocoding
    /// Tells their weather.
    public let weather: any WeatherProviding
    /// The name snapshots show as `provider`: `offline`, `open-meteo` or `weatherbit`.
    public let providerName: String

    /// The provider names ``make(provider:environment:timeout:cacheTTL:retryDelay:now:sleep:openMeteoGeocodingURL:openMeteoForecastURL:weatherbitURL:)``
    /// accepts.
    public static let providerNames = ["offline", "open-meteo", "weatherbit"]
    /// The environment variable that holds the Weatherbit key.
    public static let weatherbitKeyVariable = "VIEWHOST_WEATHERBIT_KEY"
    /// Open-Meteo's geocoding endpoint.
    public static let openMeteoGeocodingURL = URL(string: "https://geocoding-api.open-meteo.com/v1/search")!
    /// Open-Meteo's forecast endpoint.
    public static let openMeteoForecastURL = URL(string: "https://api.open-meteo.com/v1/forecast")!
    /// Weatherbit's current-weather endpoint.
    public static let weatherbitURL = URL(string: "https://api.weatherbit.io/v2.0/current")!

    /// The offline services on the wall clock, sharing the process's one gazetteer.
    public static let offline = offline(now: { Date() })

    /// Creates services from parts (tests and fakes).
    /// - Parameters:
    ///   - geocoder: Finds places.
    ///   - weather: Tells their weather.
    ///   - providerName: The name snapshots show.
    public init(geocoder: any Geocoding, weather: any WeatherProviding, providerName: String) {
        self.geocoder = geocoder
        self.weather = weather
        self.providerName = providerName
    }

    /// The offline services on the clock `now` (tests choose the hour), sharing the process's one gazetteer.
    public static func offline(now: @escaping @Sendable () -> Date) -> WeatherServices {
        WeatherServices(
            geocoder: OfflineGeocoder(gazetteer: .shared), weather: OfflineWeatherProvider(now: now),
            providerName: "offline")
    }

    /// The services named `provider`.
    /// - Parameters:
    ///   - provider: `offline`, `open-meteo` or `weatherbit`.
    ///   - environment: The process environment; `weatherbit` reads its key from ``weatherbitKeyVariable``.
    ///   - timeout: How long one provider request may take (each of the two attempts).
    ///   - cacheTTL: How long an answer is reused for the same text or place.
    ///   - retryDelay: The pause before the one retry.
    ///   - now: The clock the cache (and Weatherbit's date fallback, and the offline weather) reads.
    ///   - sleep: Waits out a request's timeout and the retry delay (tests decide when a timeout fires).
    ///   - openMeteoGeocodingURL: Open-Meteo's geocoding endpoint.
    ///   - openMeteoForecastURL: Open-Meteo's forecast endpoint.
    ///   - weatherbitURL: Weatherbit's current-weather endpoint.
    /// - Returns: The services.
    /// - Throws: ``WeatherConfigurationError`` for an unknown name, or `weatherbit` without a key.
    public static func make(
        provider: String, environment: [String: String], timeout: Duration = .seconds(5),
        cacheTTL: Duration = .seconds(600), retryDelay: Duration = .milliseconds(250),
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) },
        openMeteoGeocodingURL: URL = openMeteoGeocodingURL, openMeteoForecastURL: URL = openMeteoForecastURL,
        weatherbitURL: URL = weatherbitURL
    ) throws(WeatherConfigurationError) -> WeatherServices {
        func geocoder() -> any Geocoding {
            let base = OpenMeteoGeocoder(
                baseURL: openMeteoGeocodingURL,
                fetcher: JSONFetcher(
                    service: OpenMeteoGeocoder.service, timeout: timeout, retryDelay: retryDelay, sleep: sleep))
            return CachedGeocoder(base: base, cache: ProviderCache(ttl: cacheTTL, now: now))
        }
        func cached(_ base: any WeatherProviding) -> any WeatherProviding {
            CachedWeatherProvider(base: base, cache: ProviderCache(ttl: cacheTTL, now: now))
        }
        switch provider {
        case "offline":
            return offline(now: now)
        case "open-meteo":
            let weather = OpenMeteoWeatherProvider(
                baseURL: openMeteoForecastURL,
                fetcher: JSONFetcher(
                    service: OpenMeteoWeatherProvider.service, timeout: timeout, retryDelay: retryDelay,
                    sleep: sleep))
            return WeatherServices(geocoder: geocoder(), weather: cached(weather), providerName: provider)
        case "weatherbit":
            guard let key = environment[weatherbitKeyVariable], !key.isEmpty else {
                throw .missingAPIKey(variable: weatherbitKeyVariable)
            }
            let weather = WeatherbitWeatherProvider(
                baseURL: weatherbitURL, key: key,
                fetcher: JSONFetcher(
                    service: WeatherbitWeatherProvider.service, timeout: timeout, retryDelay: retryDelay,
                    sleep: sleep),
                now: now)
            return WeatherServices(geocoder: geocoder(), weather: cached(weather), providerName: provider)
        default:
            throw .unknownProvider(provider)
        }
    }
}
