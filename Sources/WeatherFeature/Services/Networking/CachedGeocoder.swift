import Foundation

/// A ``Geocoding`` that remembers answers per typed text (trimmed, case-folded) for the cache's time to live.
struct CachedGeocoder: Geocoding {
    let base: any Geocoding
    let cache: ProviderCache<String, [Location]>

    func locations(matching address: String) async throws(WeatherError) -> [Location] {
        let key = address.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let base = base
        return try await cache.value(for: key) { () async throws(WeatherError) -> [Location] in
            try await base.locations(matching: address)
        }
    }
}
