import WeatherAPI
import ViewHostAPI
import WeatherFeature

/// A weather provider that answers from a table by location name (fake); others throw `failure`.
struct FixedWeatherProvider: WeatherProviding {
    var observations: [String: WeatherObservation] = [
        "McGaheysville, VA": .brokenClouds, "Tallinn, Estonia": .snowyTallinn,
    ]
    var failure: WeatherError = .unreachable(service: "Fixed")

    func currentWeather(at location: Location) async throws(WeatherError) -> WeatherObservation {
        guard let observation = observations[location.name] else { throw failure }
        return observation
    }
}
