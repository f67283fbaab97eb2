/// Finds places by the text a user typed, as the original's `LocationGeocoder` did with `CLGeocoder`.
///
/// Contract:
/// - Returns the matches best first; the model uses the first. No match is an empty array, not an error
///   (the original shows "Not found" for it).
/// - Throws ``WeatherError`` only when the lookup could not be made (the service is down, timed out or answered
///   nonsense), so the screen can say so instead of claiming the place does not exist.
/// - Implementations are shared by every session of the process: they must be safe to call concurrently and
///   must bound whatever they cache.
///
/// ```swift
/// let matches = try await geocoder.locations(matching: "Richmond, VA")
/// matches.first?.name   // "Richmond, VA"
/// ```
public protocol Geocoding: Sendable {
    /// Looks up `address`.
    /// - Parameter address: What the user typed, such as `Richmond, VA` or `Tallinn, Estonia`.
    /// - Returns: Matching places, best first; empty when nothing matches.
    /// - Throws: ``WeatherError`` when the lookup could not be made.
    func locations(matching address: String) async throws(WeatherError) -> [Location]
}
