/// One place of the offline gazetteer.
package struct GazetteerPlace: Sendable, Equatable {
    /// The GeoNames name, such as `Richmond` or `São Paulo`.
    package let name: String
    /// The US state's postal code, such as `VA`; nil outside the US.
    package let stateCode: String?
    /// The ISO 3166 country code, such as `US`.
    package let countryCode: String
    /// The country's English name, such as `Estonia`.
    package let countryName: String
    /// Degrees north (to 0.0001°).
    package let latitude: Double
    /// Degrees east (to 0.0001°).
    package let longitude: Double
    /// The population GeoNames gives (0 when the source has none).
    package let population: Int
    /// The IANA time zone identifier, when known.
    package let timeZoneIdentifier: String?

    /// The name the screen shows, in the original's `"\(locality), \(administrativeArea)"` shape: `Richmond, VA`
    /// for US places; elsewhere the country stands in for the area, `Tallinn, Estonia`.
    package var displayName: String {
        "\(name), \(stateCode ?? countryName)"
    }

    /// The place as a geocoder's answer.
    package var location: Location {
        Location(name: displayName, latitude: latitude, longitude: longitude, timeZoneIdentifier: timeZoneIdentifier)
    }
}
