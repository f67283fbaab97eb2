import Foundation
import WeatherAPI
import ViewHostAPI
import WeatherFeature

extension WeatherObservation {
    /// The seed's sample: 24.19 ℉, broken clouds, 2017-08-28 17:00 UTC (a Monday; 13:00 in Virginia).
    static let brokenClouds = WeatherObservation(
        temperatureFahrenheit: 24.19, iconName: "c03d", description: "Broken clouds",
        observedAt: Date(timeIntervalSince1970: 1_503_939_600), timeZoneIdentifier: "America/New_York")
    /// Light snow in Tallinn at night.
    static let snowyTallinn = WeatherObservation(
        temperatureFahrenheit: 27.5, iconName: "s01n", description: "Light snow",
        observedAt: Date(timeIntervalSince1970: 1_795_442_400), timeZoneIdentifier: "Europe/Tallinn")

    /// An observation with every argument defaulted.
    static func make(
        temperatureFahrenheit: Double = 70, iconName: String = "c01d", description: String = "Clear sky",
        observedAt: Date = Date(timeIntervalSince1970: 1_795_442_400), timeZoneIdentifier: String? = nil
    ) -> WeatherObservation {
        WeatherObservation(
            temperatureFahrenheit: temperatureFahrenheit, iconName: iconName, description: description,
            observedAt: observedAt, timeZoneIdentifier: timeZoneIdentifier)
    }
}
