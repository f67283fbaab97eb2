import Foundation

/// Finds places with Open-Meteo's keyless geocoding API (`/v1/search?name=…`).
///
/// Open-Meteo searches one name, so `Richmond, VA` is sent as `Richmond` and the qualifiers filter the answers
/// here: a qualifier that names a match's US state (`VA`, `Virginia`) or first-level area wins over one that names
/// its country (`CA` is California before Canada); then country codes, names and common aliases (`USA`, `UK`).
/// Matches keep Open-Meteo's order (its relevance and population ranking). Display names follow the original's
/// `"\(locality), \(administrativeArea)"`: `Richmond, VA` for US places (via ``USStates``), otherwise the country,
/// `Tallinn, Estonia`.
struct OpenMeteoGeocoder: Geocoding {
    static let service = "Open-Meteo geocoding"
    /// How many matches to ask for: enough that a qualifier can still pick a small town among namesakes.
    static let candidateCount = 20

    let baseURL: URL
    let fetcher: JSONFetcher

    func locations(matching address: String) async throws(WeatherError) -> [Location] {
        let query = PlaceQuery(address)
        guard !query.place.isEmpty, var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        else { return [] }
        components.queryItems =
            (components.queryItems ?? []) + [
                URLQueryItem(name: "name", value: query.place),
                URLQueryItem(name: "count", value: String(Self.candidateCount)),
                URLQueryItem(name: "language", value: "en"),
                URLQueryItem(name: "format", value: "json"),
            ]
        guard let url = components.url else { return [] }
        let response = try await fetcher.fetch(OpenMeteoGeocodingResponse.self, from: url)
        var candidates = response.results ?? []
        for qualifier in query.qualifiers.map(PlaceQuery.fold) {
            let inArea = candidates.filter { Self.areaNames(of: $0).contains(qualifier) }
            candidates = inArea.isEmpty ? candidates.filter { Self.countryNames(of: $0).contains(qualifier) } : inArea
        }
        return candidates.map(Self.location)
    }

    /// The folded words that name a match's first-level area: `virginia` and `va`.
    static func areaNames(of place: OpenMeteoGeocodingResponse.Place) -> Set<String> {
        guard let admin1 = place.admin1 else { return [] }
        var names: Set<String> = [PlaceQuery.fold(admin1)]
        if place.countryCode == "US", let code = USStates.abbreviation(of: admin1) {
            names.insert(PlaceQuery.fold(code))
        }
        return names
    }

    /// The folded words that name a match's country: its code, its name and common aliases.
    static func countryNames(of place: OpenMeteoGeocodingResponse.Place) -> Set<String> {
        var names = Set([place.countryCode, place.country].compactMap { $0 }.map(PlaceQuery.fold))
        switch place.countryCode {
        case "US": names.formUnion(["usa", "u s a", "u s", "united states of america", "america"])
        case "GB": names.formUnion(["uk", "u k", "great britain", "britain", "england", "scotland", "wales"])
        default: break
        }
        return names
    }

    /// The location the feature shows for a match.
    static func location(_ place: OpenMeteoGeocodingResponse.Place) -> Location {
        let area: String? =
            if place.countryCode == "US" {
                place.admin1.map { USStates.abbreviation(of: $0) ?? $0 }
            } else {
                place.country
            }
        return Location(
            name: area.map { "\(place.name), \($0)" } ?? place.name, latitude: place.latitude,
            longitude: place.longitude, timeZoneIdentifier: place.timezone)
    }
}
