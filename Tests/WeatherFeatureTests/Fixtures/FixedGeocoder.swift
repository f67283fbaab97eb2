import WeatherAPI
import ViewHostAPI
import WeatherFeature

/// A geocoder that answers from a table (fake): unknown texts find nothing; `failing` texts throw.
struct FixedGeocoder: Geocoding {
    var places: [String: [Location]] = ["McGaheysville, VA": [.mcGaheysville], "Tallinn, Estonia": [.tallinn]]
    var failing: [String: WeatherError] = [:]

    func locations(matching address: String) async throws(WeatherError) -> [Location] {
        if let error = failing[address] { throw error }
        return places[address] ?? []
    }
}
