import ViewModelCore

extension WeatherServices {
    /// Runs one of the weather feature's requests with these services: a lookup answers `geocoded` or
    /// `geocodingFailed`, a fetch `weatherLoaded` or `weatherFailed`, each tagged with its request.
    @Sendable public func perform(_ request: WeatherRequest) async -> WeatherAppEvent {
        switch request {
        case .geocode(let number, let address):
            do throws(WeatherError) {
                return .weather(.geocoded(request: number, locations: try await geocoder.locations(matching: address)))
            } catch {
                return .weather(.geocodingFailed(request: number, error: error))
            }
        case .currentWeather(let number, let location):
            do throws(WeatherError) {
                let observation = try await weather.currentWeather(at: location)
                return .weather(.weatherLoaded(request: number, observation: observation))
            } catch {
                return .weather(.weatherFailed(request: number, error: error))
            }
        }
    }

    /// The weather feature's requests run with these services (``perform(_:)``).
    public var requestRunner: FeatureRequestRunner {
        FeatureRequestRunner(WeatherApp.key, perform: perform)
    }
}
