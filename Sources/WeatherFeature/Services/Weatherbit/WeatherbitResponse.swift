/// Weatherbit's `current` answer (`{"data":[{…}],"count":1}`, seed 004's `WeatherbitExample.json`), with the
/// fields the original reads (`temp`, `datetime`, `weather.icon`, `weather.description`) plus the place's zone
/// and the observation's Unix time.
struct WeatherbitResponse: Decodable {
    /// One observation.
    struct Observation: Decodable {
        /// The condition.
        struct Weather: Decodable {
            let icon: String
            let description: String
        }

        let temp: Double
        /// The UTC cycle hour, `2017-08-28:17`.
        let datetime: String?
        let weather: Weather
        let timezone: String?
        /// The observation's Unix time.
        let ts: Double?
    }

    let data: [Observation]
}
