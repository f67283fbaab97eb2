/// The seed's weather flow as events (seed 004 §2(d)): a location change and the providers' answers.
///
/// Every answer carries the number of the `changeLocation` that asked for it, so the model can keep only the
/// latest (quirk fixed: in the original a slow earlier reply could overwrite a later location).
public enum WeatherEvent: Sendable, Equatable, Codable {
    /// Look up `address` and then its weather.
    case changeLocation(to: String)
    /// The geocoder answered request `request` with `locations`, best first (empty: nothing found).
    case geocoded(request: Int, locations: [Location])
    /// The geocoder could not answer request `request` (the original showed "Not found" for this too).
    case geocodingFailed(request: Int, error: WeatherError)
    /// The weather provider answered request `request`.
    case weatherLoaded(request: Int, observation: WeatherObservation)
    /// The weather provider could not answer request `request` (the original ignored this).
    case weatherFailed(request: Int, error: WeatherError)
}
