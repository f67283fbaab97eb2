import WeatherAPI
import ViewHostAPI
import WeatherFeature

extension WeatherServices {
    /// Services over the fixed fakes, named `fixed`.
    static func fixed(
        geocoder: FixedGeocoder = FixedGeocoder(), weather: FixedWeatherProvider = FixedWeatherProvider()
    ) -> WeatherServices {
        WeatherServices(geocoder: geocoder, weather: weather, providerName: "fixed")
    }
}
