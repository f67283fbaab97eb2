import ViewModelCore

/// Carries out the weather flow of the original view model (seed 004, `changeLocation(to:)`): show
/// `"Loading..."`, geocode, show the first match's name, fetch its weather, show it. Provider calls are requests
/// (data) the session runs outside its lock; their answers come back as ``WeatherEvent``s tagged with the request.
///
/// Latest wins (quirk fixed: the original let a slow earlier reply overwrite a later location): an answer for
/// any request but the newest is dropped without touching the screen.
enum WeatherEventHandler {
    /// Starts a lookup of `address`: `locationName` becomes `"Loading..."`, the other fields stay.
    static func changeLocation(
        to address: String, state: inout WeatherState, context: inout FeatureContext<WeatherApp>
    ) {
        let request = state.beginRequest(for: address)
        state.viewModel = WeatherViewModelBuilder.buildLoading(keeping: state.viewModel)
        context.request(.geocode(request: request, address: address))
    }

    /// The lookup answered: the first match's name shows and its weather is fetched; no match shows
    /// `"Not found"` with the other fields emptied (as in the original).
    static func geocoded(
        request: Int, locations: [Location], state: inout WeatherState, context: inout FeatureContext<WeatherApp>
    ) {
        guard state.isCurrent(request) else { return }
        guard let location = locations.first else {
            state.viewModel = WeatherViewModelBuilder.buildNotFound()
            return
        }
        state.location = location
        state.viewModel = WeatherViewModelBuilder.buildLocated(location, keeping: state.viewModel)
        context.request(.currentWeather(request: request, location: location))
    }

    /// The lookup itself failed: `failed` with the typed text and the reason (quirk fixed: the original turned
    /// every geocoder error into "Not found", hiding an outage behind a wrong answer).
    static func failedGeocoding(request: Int, error: WeatherError, state: inout WeatherState) {
        guard state.isCurrent(request) else { return }
        state.viewModel = WeatherViewModelBuilder.buildFailed(locationName: state.requestedAddress, error: error)
    }

    /// The weather arrived for the current place: date, icon and summaries show.
    static func weatherLoaded(request: Int, observation: WeatherObservation, state: inout WeatherState) {
        guard state.isCurrent(request), let location = state.location else { return }
        state.viewModel = WeatherViewModelBuilder.build(location: location, observation: observation)
    }

    /// The weather fetch failed: `failed` with the reason and no weather (quirk fixed: the original kept the
    /// previous place's date, icon and summary next to the new name).
    static func failedLoadingWeather(request: Int, error: WeatherError, state: inout WeatherState) {
        guard state.isCurrent(request), let location = state.location else { return }
        state.viewModel = WeatherViewModelBuilder.buildFailed(locationName: location.name, error: error)
    }
}
