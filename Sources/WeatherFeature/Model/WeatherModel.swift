/// One session's weather state: what the screen shows, which request is current, and the place it is for.
///
/// Only touched under the session's lock (through ``WeatherApp``), one event at a time.
final class WeatherModel {
    /// What the screen shows now.
    private(set) var viewModel = WeatherViewModelBuilder.buildInitial()
    /// The number of the latest `changeLocation`; answers to any other are stale.
    private(set) var currentRequest = 0
    /// The text of the latest `changeLocation`.
    private(set) var requestedAddress = ""
    /// The place the latest request resolved to, once geocoded.
    private(set) var location: Location?

    /// Starts a new request for `address` and returns its number; earlier requests become stale.
    func beginRequest(for address: String) -> Int {
        currentRequest += 1
        requestedAddress = address
        location = nil
        return currentRequest
    }

    /// Whether `request` is the latest one (latest wins).
    func isCurrent(_ request: Int) -> Bool {
        request == currentRequest
    }

    /// Records the place the current request resolved to.
    func resolved(_ location: Location) {
        self.location = location
    }

    /// Replaces what the screen shows.
    func show(_ viewModel: WeatherViewModel) {
        self.viewModel = viewModel
    }
}
