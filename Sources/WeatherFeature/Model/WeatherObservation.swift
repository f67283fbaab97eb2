import Foundation

/// The current weather at one place, as a provider reports it: the fields the original reads from
/// `WeatherbitData` (temperature, icon name, description, date) plus when it was observed and in which zone.
public struct WeatherObservation: Sendable, Equatable, Codable {
    /// The temperature in degrees Fahrenheit (the original asks Weatherbit for `units=I`).
    public let temperatureFahrenheit: Double
    /// The Weatherbit icon name, such as `c03d` (`d` by day, `n` by night).
    public let iconName: String
    /// The condition in words, such as `Broken clouds`.
    public let description: String
    /// When the observation was made.
    public let observedAt: Date
    /// The zone the provider reported for the place, if any.
    public let timeZoneIdentifier: String?

    /// Creates an observation.
    /// - Parameters:
    ///   - temperatureFahrenheit: Degrees Fahrenheit.
    ///   - iconName: A Weatherbit icon name.
    ///   - description: The condition in words.
    ///   - observedAt: When it was observed.
    ///   - timeZoneIdentifier: The place's IANA zone, if the provider says.
    public init(
        temperatureFahrenheit: Double, iconName: String, description: String, observedAt: Date,
        timeZoneIdentifier: String? = nil
    ) {
        self.temperatureFahrenheit = temperatureFahrenheit
        self.iconName = iconName
        self.description = description
        self.observedAt = observedAt
        self.timeZoneIdentifier = timeZoneIdentifier
    }
}
