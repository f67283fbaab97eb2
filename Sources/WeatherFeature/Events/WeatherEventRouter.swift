import ViewModelCore

/// The weather feature's one entry point for ``WeatherEvent``s: hands each to the handler function named after it.
enum WeatherEventRouter {
    /// Routes one event.
    static func route(_ event: WeatherEvent, state: inout WeatherState, context: inout FeatureContext<WeatherApp>) {
        switch event {
        case .changeLocation(let address):
            WeatherEventHandler.changeLocation(to: address, state: &state, context: &context)
        case .geocoded(let request, let locations):
            WeatherEventHandler.geocoded(request: request, locations: locations, state: &state, context: &context)
        case .geocodingFailed(let request, let error):
            WeatherEventHandler.failedGeocoding(request: request, error: error, state: &state)
        case .weatherLoaded(let request, let observation):
            WeatherEventHandler.weatherLoaded(request: request, observation: observation, state: &state)
        case .weatherFailed(let request, let error):
            WeatherEventHandler.failedLoadingWeather(request: request, error: error, state: &state)
        }
    }
}
