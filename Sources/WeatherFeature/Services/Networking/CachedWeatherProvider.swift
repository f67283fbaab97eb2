/// A ``WeatherProviding`` that remembers the weather per location for the cache's time to live.
///
/// Locations are keyed by their coordinates rounded to 0.01° (about 1 km), so two names for one place share an
/// answer; the answer is the same weather anyway.
struct CachedWeatherProvider: WeatherProviding {
    /// A location's cache key: hundredths of a degree.
    struct Key: Hashable, Sendable {
        let latitude: Int
        let longitude: Int

        init(_ location: Location) {
            latitude = Int((location.latitude * 100).rounded())
            longitude = Int((location.longitude * 100).rounded())
        }
    }

    let base: any WeatherProviding
    let cache: ProviderCache<Key, WeatherObservation>

    func currentWeather(at location: Location) async throws(WeatherError) -> WeatherObservation {
        let base = base
        return try await cache.value(for: Key(location)) { () async throws(WeatherError) -> WeatherObservation in
            try await base.currentWeather(at: location)
        }
    }
}
