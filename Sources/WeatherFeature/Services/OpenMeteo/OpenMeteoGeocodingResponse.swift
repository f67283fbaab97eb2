/// Open-Meteo's geocoding answer (`GET /v1/search`): `results` is missing when nothing matches.
struct OpenMeteoGeocodingResponse: Decodable {
    /// One match, with only the fields the feature reads.
    struct Place: Decodable {
        let name: String
        let latitude: Double
        let longitude: Double
        let country: String?
        let countryCode: String?
        /// The first-level area's full name, such as `Virginia` or `Île-de-France`.
        let admin1: String?
        let timezone: String?
        let population: Int?

        private enum CodingKeys: String, CodingKey {
            case name, latitude, longitude, country, admin1, timezone, population
            case countryCode = "country_code"
        }
    }

    let results: [Place]?
}
