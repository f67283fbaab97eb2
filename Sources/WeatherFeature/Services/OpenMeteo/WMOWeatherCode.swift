/// WMO weather interpretation codes (Open-Meteo's `weather_code`) as the original's Weatherbit icons.
///
/// The icon table is the seed's proposal (seed 004 §2(b), "not in any source"): it keeps Grados' icon names so a
/// client renders both providers alike. The description is the WMO text as Open-Meteo documents it.
package enum WMOWeatherCode {
    /// The Weatherbit icon stem (without `d`/`n`) and the WMO text of `code`.
    package static func condition(_ code: Int) -> (icon: String, description: String) {
        switch code {
        case 0: ("c01", "Clear sky")
        case 1: ("c02", "Mainly clear")
        case 2: ("c03", "Partly cloudy")
        case 3: ("c04", "Overcast")
        case 45: ("a05", "Fog")
        case 48: ("a06", "Depositing rime fog")
        case 51: ("d01", "Light drizzle")
        case 53: ("d02", "Moderate drizzle")
        case 55: ("d03", "Dense drizzle")
        case 56: ("f01", "Light freezing drizzle")
        case 57: ("f01", "Dense freezing drizzle")
        case 61: ("r01", "Slight rain")
        case 63: ("r02", "Moderate rain")
        case 65: ("r03", "Heavy rain")
        case 66: ("f01", "Light freezing rain")
        case 67: ("f01", "Heavy freezing rain")
        case 71: ("s01", "Slight snow fall")
        case 73: ("s02", "Moderate snow fall")
        case 75: ("s03", "Heavy snow fall")
        case 77: ("s06", "Snow grains")
        case 80: ("r04", "Slight rain showers")
        case 81: ("r05", "Moderate rain showers")
        case 82: ("r06", "Violent rain showers")
        case 85: ("s01", "Slight snow showers")
        case 86: ("s02", "Heavy snow showers")
        case 95: ("t01", "Thunderstorm")
        case 96: ("t05", "Thunderstorm with slight hail")
        case 99: ("t05", "Thunderstorm with heavy hail")
        default: ("u00", "Unknown precipitation")
        }
    }

    /// The full icon name: the stem with `d` by day (`is_day == 1`), else `n`.
    package static func iconName(_ code: Int, isDay: Bool) -> String {
        condition(code).icon + (isDay ? "d" : "n")
    }
}
