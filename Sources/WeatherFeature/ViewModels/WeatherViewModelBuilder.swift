import Foundation
import ViewHostAPI
import WeatherAPI

/// The weather screen's rules as pure functions (seed 004, `WeatherViewModel.swift`): each takes what the
/// original's closures had at hand and returns the whole next view model.
package enum WeatherViewModelBuilder {
    /// The text `locationName` shows while a lookup runs.
    package static let loadingText = "Loading..."
    /// The text `locationName` shows when the geocoder finds nothing.
    package static let notFoundText = "Not found"

    /// The first view model of a session: the tutorial's initial boxes, `"Loading..."`, `" "`, nil, `" "`,
    /// `" "` (the republished fork starts with `""`; the tutorial's single spaces are kept).
    package static func buildInitial() -> WeatherViewModel {
        WeatherViewModel(
            locationName: loadingText, date: " ", icon: nil, summary: " ", forecastSummary: " ", status: .loading)
    }

    /// `changeLocation(to:)` began: `locationName` becomes `"Loading..."` and the other fields keep their values,
    /// as in the original (quirk kept: the old place's weather stays visible under "Loading...").
    /// - Parameter previous: The view model before the change.
    /// - Returns: The loading view model.
    package static func buildLoading(keeping previous: WeatherViewModel) -> WeatherViewModel {
        var next = previous
        next.locationName = loadingText
        next.status = .loading
        next.error = nil
        return next
    }

    /// The geocoder found `location`: its name shows at once while the weather loads; the rest is kept.
    /// - Parameters:
    ///   - location: The first match.
    ///   - previous: The view model before.
    /// - Returns: The view model with the place's name.
    package static func buildLocated(_ location: Location, keeping previous: WeatherViewModel) -> WeatherViewModel {
        var next = previous
        next.locationName = location.name
        return next
    }

    /// The geocoder found nothing: `"Not found"`, empty date, no icon, empty summaries (the original's values).
    package static func buildNotFound() -> WeatherViewModel {
        WeatherViewModel(
            locationName: notFoundText, date: "", icon: nil, summary: "", forecastSummary: "", status: .notFound)
    }

    /// The weather arrived: the original's date, icon and summaries.
    /// - Parameters:
    ///   - location: The place it is for.
    ///   - observation: The provider's answer.
    /// - Returns: The ready view model.
    package static func build(location: Location, observation: WeatherObservation) -> WeatherViewModel {
        let zone = timeZone(observation.timeZoneIdentifier) ?? timeZone(location.timeZoneIdentifier) ?? .gmt
        return WeatherViewModel(
            locationName: location.name,
            date: dateText(observation.observedAt, timeZone: zone),
            icon: observation.iconName,
            summary: summary(description: observation.description, temperature: observation.temperatureFahrenheit),
            forecastSummary: forecastSummary(description: observation.description),
            status: .ready,
            observedAt: observation.observedAt.formatted(.iso8601),
            error: nil)
    }

    /// A provider failed: the place's name (or what was typed, when the lookup itself failed) with the reason,
    /// and no weather (quirk fixed: the original silently kept the previous place's weather).
    /// - Parameters:
    ///   - locationName: The name to keep showing.
    ///   - error: What went wrong.
    /// - Returns: The failed view model.
    package static func buildFailed(locationName: String, error: WeatherError) -> WeatherViewModel {
        WeatherViewModel(
            locationName: locationName, date: "", icon: nil, summary: "", forecastSummary: "", status: .failed,
            observedAt: nil, error: error.description)
    }

    /// `"<description> - <temperature>℉"`, the tutorial's unit sign (the fork writes `°F`).
    package static func summary(description: String, temperature: Double) -> String {
        "\(description) - \(temperatureText(temperature))℉"
    }

    /// `"\nSummary: <description>"`: the original's text starts with a newline (quirk kept).
    package static func forecastSummary(description: String) -> String {
        "\nSummary: \(description)"
    }

    /// The temperature as the original's `NumberFormatter` (`numberStyle = .none`) writes it: a whole number,
    /// rounded half to even (24.19 → 24, 24.5 → 24, 25.5 → 26), no grouping (1234.6 → 1235).
    /// (quirk fixed: the formatter writes `-0` for −0.5…−0.0; this writes `0`.)
    package static func temperatureText(_ fahrenheit: Double) -> String {
        guard fahrenheit.isFinite, abs(fahrenheit) < 1e15 else { return "--" }
        let rounded = Int64(fahrenheit.rounded(.toNearestOrEven))
        return String(rounded)
    }

    /// The date as `"EEEE, MMM d"` (`Monday, Aug 28`) in `timeZone`, with fixed English names (en_US_POSIX) so
    /// the text does not depend on the machine's locale.
    package static func dateText(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEEE, MMM d"
        return formatter.string(from: date)
    }

    private static func timeZone(_ identifier: String?) -> TimeZone? {
        identifier.flatMap(TimeZone.init(identifier:))
    }
}
