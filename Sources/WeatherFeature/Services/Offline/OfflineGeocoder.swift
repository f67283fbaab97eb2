/// Finds places in the embedded gazetteer: no network, no key, answers in microseconds.
///
/// Never throws: a text it cannot place is an empty answer, shown as "Not found" as the original shows it.
struct OfflineGeocoder: Geocoding {
    let gazetteer: Gazetteer

    func locations(matching address: String) async throws(WeatherError) -> [Location] {
        gazetteer.places(matching: address).map(\.location)
    }
}
