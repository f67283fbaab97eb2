/// One session's weather state: what the screen shows, which request is current, the place it is for, and the
/// provider that serves the session.
public struct WeatherState: Codable, Equatable, Sendable {
    /// What the screen shows now.
    var viewModel = WeatherViewModelBuilder.buildInitial()
    /// The number of the latest `changeLocation`; answers to any other are stale.
    var currentRequest = 0
    /// The text of the latest `changeLocation`.
    var requestedAddress = ""
    /// The place the latest request resolved to, once geocoded.
    var location: Location?
    /// The name snapshots show as `provider`: `offline`, `open-meteo` or `weatherbit`.
    let provider: String

    /// The state of a new session served by `provider`: the original's initial boxes.
    public init(provider: String) {
        self.provider = provider
    }

    /// Starts a new request for `address` and returns its number; earlier requests become stale.
    mutating func beginRequest(for address: String) -> Int {
        currentRequest += 1
        requestedAddress = address
        location = nil
        return currentRequest
    }

    /// Whether `request` is the latest one (latest wins).
    func isCurrent(_ request: Int) -> Bool {
        request == currentRequest
    }
}
