import Foundation

/// Weather made up by ``OfflineClimate`` for the current hour, so the app works with no network and no key.
///
/// Deterministic for the same place and hour, plausible for the place's latitude, season and time of day, and
/// never presented as a real observation: sessions served by it show `provider: "offline"`.
struct OfflineWeatherProvider: WeatherProviding {
    /// The wall clock (injected so tests choose the hour).
    let now: @Sendable () -> Date

    func currentWeather(at location: Location) async throws(WeatherError) -> WeatherObservation {
        OfflineClimate.observation(at: location, date: now())
    }
}
