import Foundation

/// The current weather from Open-Meteo's keyless forecast API, in degrees Fahrenheit, with the WMO code mapped
/// to the original's Weatherbit icons (``WMOWeatherCode``).
struct OpenMeteoWeatherProvider: WeatherProviding {
    static let service = "Open-Meteo"

    let baseURL: URL
    let fetcher: JSONFetcher

    func currentWeather(at location: Location) async throws(WeatherError) -> WeatherObservation {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw .invalidResponse(service: Self.service)
        }
        components.queryItems =
            (components.queryItems ?? []) + [
                URLQueryItem(name: "latitude", value: String(location.latitude)),
                URLQueryItem(name: "longitude", value: String(location.longitude)),
                URLQueryItem(name: "current", value: "temperature_2m,weather_code,is_day"),
                URLQueryItem(name: "temperature_unit", value: "fahrenheit"),
                URLQueryItem(name: "timezone", value: "auto"),
            ]
        guard let url = components.url else { throw .invalidResponse(service: Self.service) }
        let response = try await fetcher.fetch(OpenMeteoForecastResponse.self, from: url)
        guard let observedAt = Self.instant(localTime: response.current.time, offset: response.utcOffsetSeconds ?? 0)
        else { throw .invalidResponse(service: Self.service) }
        let code = response.current.weatherCode
        return WeatherObservation(
            temperatureFahrenheit: response.current.temperature,
            iconName: WMOWeatherCode.iconName(code, isDay: response.current.isDay == 1),
            description: WMOWeatherCode.condition(code).description,
            observedAt: observedAt,
            timeZoneIdentifier: response.timezone ?? location.timeZoneIdentifier)
    }

    /// The instant of a local `yyyy-MM-ddTHH:mm` time at `offset` seconds east of UTC.
    static func instant(localTime: String, offset: Int) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: offset)
        formatter.dateFormat = localTime.count > 16 ? "yyyy-MM-dd'T'HH:mm:ss" : "yyyy-MM-dd'T'HH:mm"
        return formatter.date(from: localTime)
    }
}
