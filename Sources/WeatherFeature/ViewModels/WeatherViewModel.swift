import ViewHostAPI
import WeatherAPI

/// What the weather screen shows: the original view model's five outputs (seed 004: `locationName`, `date`,
/// `icon`, `summary`, `forecastSummary`, each a `Box`) plus the status fields the host adds. A pure value that
/// ``WeatherViewModelBuilder`` makes and ``WeatherSnapshot`` serves.
package struct WeatherViewModel: Sendable, Equatable, Codable {
    /// The place's name, `"Loading..."` while a lookup runs, or `"Not found"`.
    package var locationName: String
    /// The observation's day, `"EEEE, MMM d"`.
    package var date: String
    /// The Weatherbit icon name (the original shows `UIImage(named:)` of it), or nil.
    package var icon: String?
    /// `"<description> - <temperature>℉"`.
    package var summary: String
    /// `"\nSummary: <description>"`, with the original's leading newline.
    package var forecastSummary: String
    /// Where the current request stands.
    package var status: WeatherStatus
    /// When the shown weather was observed (ISO 8601), or nil.
    package var observedAt: String?
    /// Why the last request failed, or nil.
    package var error: String?

    /// Creates a view model.
    package init(
        locationName: String, date: String, icon: String?, summary: String, forecastSummary: String,
        status: WeatherStatus, observedAt: String? = nil, error: String? = nil
    ) {
        self.locationName = locationName
        self.date = date
        self.icon = icon
        self.summary = summary
        self.forecastSummary = forecastSummary
        self.status = status
        self.observedAt = observedAt
        self.error = error
    }
}
