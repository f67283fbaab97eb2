/// A place a geocoder found: the name the screen shows and where it is.
///
/// Mirrors the original's `Location { name, latitude, longitude }` (seed 004), plus the place's IANA time zone
/// when the geocoder knows it, so the weather date can be shown in the place's own zone.
public struct Location: Sendable, Equatable, Hashable, Codable {
    /// The display name, such as `Richmond, VA` or `Tallinn, Estonia`.
    public let name: String
    /// Degrees north.
    public let latitude: Double
    /// Degrees east.
    public let longitude: Double
    /// The place's IANA time zone identifier, such as `America/New_York`, when known.
    public let timeZoneIdentifier: String?

    /// Creates a location.
    /// - Parameters:
    ///   - name: The display name.
    ///   - latitude: Degrees north.
    ///   - longitude: Degrees east.
    ///   - timeZoneIdentifier: The IANA time zone identifier, if known.
    public init(name: String, latitude: Double, longitude: Double, timeZoneIdentifier: String? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.timeZoneIdentifier = timeZoneIdentifier
    }
}
