import WeatherAPI
import ViewHostAPI
import WeatherFeature

extension Location {
    /// The original's default place.
    static let mcGaheysville = Location(
        name: "McGaheysville, VA", latitude: 38.3715, longitude: -78.7447, timeZoneIdentifier: "America/New_York")
    /// Tallinn.
    static let tallinn = Location(
        name: "Tallinn, Estonia", latitude: 59.437, longitude: 24.7535, timeZoneIdentifier: "Europe/Tallinn")

    /// A location with every argument defaulted.
    static func make(
        name: String = "Testville, VA", latitude: Double = 38, longitude: Double = -78,
        timeZoneIdentifier: String? = "America/New_York"
    ) -> Location {
        Location(name: name, latitude: latitude, longitude: longitude, timeZoneIdentifier: timeZoneIdentifier)
    }
}
