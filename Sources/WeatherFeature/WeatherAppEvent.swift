/// Everything the weather feature of one session reacts to: the client's one intent, the session's start, and
/// the providers' answers (delivered as `.provider` events; never decoded from clients).
public enum WeatherAppEvent: Sendable, Equatable, Codable {
    /// The session began: the original's `init()`, which calls `changeLocation(to: "McGaheysville, VA")`.
    case start
    /// The "Choose location" alert's Submit, with the typed text (client event `changeLocation[location]`).
    case changeLocation(String)
    /// A step of the seed's own flow: a lookup or fetch began, or a provider answered.
    case weather(WeatherEvent)
}

/// The outside work the weather feature asks for, tagged with the `changeLocation` it belongs to.
public enum WeatherRequest: Sendable, Equatable, Codable {
    /// Look up `address` (answered by `geocoded` or `geocodingFailed`).
    case geocode(request: Int, address: String)
    /// Fetch the current weather at `location` (answered by `weatherLoaded` or `weatherFailed`).
    case currentWeather(request: Int, location: Location)
}
