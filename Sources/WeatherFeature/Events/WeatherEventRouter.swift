import ViewModelCore

/// The weather feature's one entry point for ``WeatherEvent``s: hands each to the handler method named after it.
struct WeatherEventRouter {
    let handler: WeatherEventHandler

    /// Routes one event.
    func route(_ event: WeatherEvent, context: inout FeatureContext<WeatherAppEvent>) {
        switch event {
        case .changeLocation(let address):
            handler.changeLocation(to: address, context: &context)
        case .geocoded(let request, let locations):
            handler.geocoded(request: request, locations: locations, context: &context)
        case .geocodingFailed(let request, let error):
            handler.failedGeocoding(request: request, error: error)
        case .weatherLoaded(let request, let observation):
            handler.weatherLoaded(request: request, observation: observation)
        case .weatherFailed(let request, let error):
            handler.failedLoadingWeather(request: request, error: error)
        }
    }
}
