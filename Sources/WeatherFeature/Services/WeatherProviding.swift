/// Tells the current weather at a place, as the original's `WeatherbitService` did.
///
/// Contract:
/// - Answers with one ``WeatherObservation`` in degrees Fahrenheit, with a Weatherbit icon name (`c01d` …
///   `u00n`) and the condition in words.
/// - Throws ``WeatherError`` when it cannot answer; it never returns made-up data in place of a failure (only the
///   `offline` provider makes weather up, and it says so through its provider name).
/// - Implementations are shared by every session of the process: they must be safe to call concurrently and
///   must bound whatever they cache.
public protocol WeatherProviding: Sendable {
    /// The current weather at `location`.
    /// - Parameter location: A place a ``Geocoding`` found.
    /// - Returns: The observation.
    /// - Throws: ``WeatherError`` when the provider cannot answer.
    func currentWeather(at location: Location) async throws(WeatherError) -> WeatherObservation
}
