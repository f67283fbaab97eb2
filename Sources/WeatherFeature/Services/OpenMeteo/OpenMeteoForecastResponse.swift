/// Open-Meteo's forecast answer asked for `current=temperature_2m,weather_code,is_day`: `current.time` is local
/// time (`2026-03-26T16:15`) in `timezone`, whose offset is `utc_offset_seconds`.
struct OpenMeteoForecastResponse: Decodable {
    /// The current conditions.
    struct Current: Decodable {
        let time: String
        let temperature: Double
        let weatherCode: Int
        let isDay: Int

        private enum CodingKeys: String, CodingKey {
            case time
            case temperature = "temperature_2m"
            case weatherCode = "weather_code"
            case isDay = "is_day"
        }
    }

    let timezone: String?
    let utcOffsetSeconds: Int?
    let current: Current

    private enum CodingKeys: String, CodingKey {
        case timezone, current
        case utcOffsetSeconds = "utc_offset_seconds"
    }
}
