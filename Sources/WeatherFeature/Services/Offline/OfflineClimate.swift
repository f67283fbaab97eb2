import Foundation
import ViewModelCore

/// Made-up but plausible weather, the same for the same place and hour: the offline provider's model.
///
/// - Temperature (°F, to 0.1) follows latitude (warm tropics, cold poles), the season (opposite in the southern
///   hemisphere) and the local solar hour (warmest mid-afternoon), plus a little noise per place and day and
///   per hour, drawn from a stable hash (never Swift's per-process seeded `Hasher`).
/// - The condition is drawn from a stable hash of the place and the hour, weighted towards clear and cloudy
///   skies; precipitation turns to snow at or below freezing.
/// - The icon ends in `d` while the sun is up at the place (solar elevation above −0.833°), else `n`.
package enum OfflineClimate {
    /// A condition: the Weatherbit icon stem and description.
    package typealias Condition = (icon: String, description: String)

    /// The observation at `location` for the hour that contains `date`.
    package static func observation(at location: Location, date: Date) -> WeatherObservation {
        let hour = (date.timeIntervalSince1970 / 3600).rounded(.down)
        let observedAt = Date(timeIntervalSince1970: hour * 3600)
        let place = placeHash(location)
        var hourly = RandomSource.seeded(place ^ UInt64(bitPattern: Int64(hour)) &* 0x9E37_79B9_7F4A_7C15)
        var daily = RandomSource.seeded(
            place ^ UInt64(bitPattern: Int64((hour / 24).rounded(.down))) &* 0xC2B2_AE3D_27D4_EB4F)
        let celsius =
            temperatureCelsius(latitude: location.latitude, longitude: location.longitude, date: observedAt)
            + Double.random(in: -3...3, using: &daily) + Double.random(in: -0.7...0.7, using: &hourly)
        let fahrenheit = ((celsius * 9 / 5 + 32) * 10).rounded() / 10
        let condition = condition(draw: Double.random(in: 0..<1, using: &hourly), fahrenheit: fahrenheit)
        let isDay =
            solarElevation(latitude: location.latitude, longitude: location.longitude, date: observedAt) > -0.833
        return WeatherObservation(
            temperatureFahrenheit: fahrenheit, iconName: condition.icon + (isDay ? "d" : "n"),
            description: condition.description, observedAt: observedAt,
            timeZoneIdentifier: location.timeZoneIdentifier)
    }

    /// The noise-free temperature in °C: annual mean by latitude, seasonal swing, afternoon peak.
    package static func temperatureCelsius(latitude: Double, longitude: Double, date: Date) -> Double {
        let absolute = min(abs(latitude), 90)
        let mean = 28 - 0.35 * absolute - 0.8 * max(0, absolute - 60)
        let swing = min(0.22 * absolute, 20)
        let season = cos(2 * Double.pi * (dayOfYear(date) - 200) / 365.25) * (latitude >= 0 ? 1 : -1)
        let daily = 4.5 * cos(2 * Double.pi * (solarHour(longitude: longitude, date: date) - 15) / 24)
        return mean + swing * season + daily
    }

    /// The sun's elevation in degrees (declination and hour angle; good to about a degree).
    package static func solarElevation(latitude: Double, longitude: Double, date: Date) -> Double {
        let radians = Double.pi / 180
        let declination = -23.44 * cos(2 * Double.pi * (dayOfYear(date) + 10) / 365.25)
        let hourAngle = 15 * (solarHour(longitude: longitude, date: date) - 12)
        let sine =
            sin(latitude * radians) * sin(declination * radians)
            + cos(latitude * radians) * cos(declination * radians) * cos(hourAngle * radians)
        return asin(max(-1, min(1, sine))) / radians
    }

    /// A condition for a uniform draw in `0..<1`: about 77 % dry skies, the rest mist, drizzle, rain or snow,
    /// and storms in the warmth (Weatherbit's icons and texts).
    package static func condition(draw: Double, fahrenheit: Double) -> Condition {
        let freezing = fahrenheit <= 32
        switch draw {
        case ..<0.30: return ("c01", "Clear sky")
        case ..<0.45: return ("c02", "Few clouds")
        case ..<0.56: return ("c02", "Scattered clouds")
        case ..<0.67: return ("c03", "Broken clouds")
        case ..<0.77: return ("c04", "Overcast clouds")
        case ..<0.81: return fahrenheit < 50 ? ("a05", "Fog") : ("a01", "Mist")
        case ..<0.85: return freezing ? ("s06", "Flurries") : ("d01", "Light drizzle")
        case ..<0.92:
            if freezing { return ("s01", "Light snow") }
            return fahrenheit <= 36 ? ("s04", "Mix snow/rain") : ("r01", "Light rain")
        case ..<0.96: return freezing ? ("s02", "Snow") : ("r02", "Moderate rain")
        case ..<0.99: return freezing ? ("s01", "Snow shower") : ("r05", "Shower rain")
        default:
            if freezing { return ("s03", "Heavy snow") }
            return fahrenheit >= 60 ? ("t02", "Thunderstorm with rain") : ("r03", "Heavy rain")
        }
    }

    /// Local mean solar time in hours, `0..<24`.
    private static func solarHour(longitude: Double, date: Date) -> Double {
        let utcHours = (date.timeIntervalSince1970 / 3600).truncatingRemainder(dividingBy: 24)
        let local = (utcHours + longitude / 15).truncatingRemainder(dividingBy: 24)
        return local < 0 ? local + 24 : local
    }

    /// The day of the year, 1-based, in UTC (fractional days ignored).
    private static func dayOfYear(_ date: Date) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return Double(calendar.ordinality(of: .day, in: .year, for: date) ?? 1)
    }

    /// FNV-1a over the place's name and coordinates (to 0.0001°): stable across processes and machines.
    private static func placeHash(_ location: Location) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        for byte in location.name.utf8 { mix(byte) }
        for value in [location.latitude, location.longitude] {
            let scaled = UInt64(bitPattern: Int64((value * 10_000).rounded()))
            for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: scaled >> UInt64(shift))) }
        }
        return hash
    }
}
