import Foundation

/// The current weather from Weatherbit (`/v2.0/current?key=…&units=I&lat=…&lon=…`), as the original's
/// `WeatherbitService` fetched it (seed 004), with its key from the environment.
///
/// Differences from the original, each a fix:
/// - An empty `data` array is a failure (quirk fixed: the original crashed reading `observation[0]`).
/// - The date is `datetime`'s UTC cycle hour shown in the place's own zone (quirk fixed: the original showed the UTC
///   date, a day off in the evening west of Greenwich); `ts`, then the current time, stand in when `datetime`
///   cannot be read (the original fell back to now).
struct WeatherbitWeatherProvider: WeatherProviding {
    static let service = "Weatherbit"

    let baseURL: URL
    let key: String
    let fetcher: JSONFetcher
    let now: @Sendable () -> Date

    func currentWeather(at location: Location) async throws(WeatherError) -> WeatherObservation {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw .invalidResponse(service: Self.service)
        }
        components.queryItems =
            (components.queryItems ?? []) + [
                URLQueryItem(name: "key", value: key),
                URLQueryItem(name: "units", value: "I"),
                URLQueryItem(name: "lat", value: String(location.latitude)),
                URLQueryItem(name: "lon", value: String(location.longitude)),
            ]
        guard let url = components.url else { throw .invalidResponse(service: Self.service) }
        let response = try await fetcher.fetch(WeatherbitResponse.self, from: url)
        guard let observation = response.data.first else { throw .invalidResponse(service: Self.service) }
        return WeatherObservation(
            temperatureFahrenheit: observation.temp,
            iconName: observation.weather.icon,
            description: observation.weather.description,
            observedAt: Self.cycleHour(observation.datetime) ?? observation.ts.map(Date.init(timeIntervalSince1970:))
                ?? now(),
            timeZoneIdentifier: observation.timezone ?? location.timeZoneIdentifier)
    }

    /// The instant of a `yyyy-MM-dd:HH` UTC cycle hour.
    static func cycleHour(_ datetime: String?) -> Date? {
        guard let datetime else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .gmt
        formatter.dateFormat = "yyyy-MM-dd:HH"
        return formatter.date(from: datetime)
    }
}
