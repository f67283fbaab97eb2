import ViewModelCore

/// Carries out the weather flow of the original view model (seed 004, `changeLocation(to:)`): show
/// `"Loading..."`, geocode, show the first match's name, fetch its weather, show it. Provider calls run as
/// effects outside the session's lock; their answers come back as ``WeatherEvent``s tagged with the request.
///
/// Latest wins (quirk fixed: the original let a slow earlier reply overwrite a later location): an answer for
/// any request but the newest is dropped without touching the screen.
struct WeatherEventHandler {
    let model: WeatherModel
    let services: WeatherServices

    /// Starts a lookup of `address`: `locationName` becomes `"Loading..."`, the other fields stay.
    func changeLocation(to address: String, context: inout FeatureContext<WeatherAppEvent>) {
        let request = model.beginRequest(for: address)
        model.show(WeatherViewModelBuilder.buildLoading(keeping: model.viewModel))
        let geocoder = services.geocoder
        context.perform {
            do throws(WeatherError) {
                let locations = try await geocoder.locations(matching: address)
                return .weather(.geocoded(request: request, locations: locations))
            } catch {
                return .weather(.geocodingFailed(request: request, error: error))
            }
        }
    }

    /// The lookup answered: the first match's name shows and its weather is fetched; no match shows
    /// `"Not found"` with the other fields emptied (as in the original).
    func geocoded(request: Int, locations: [Location], context: inout FeatureContext<WeatherAppEvent>) {
        guard model.isCurrent(request) else { return }
        guard let location = locations.first else {
            model.show(WeatherViewModelBuilder.buildNotFound())
            return
        }
        model.resolved(location)
        model.show(WeatherViewModelBuilder.buildLocated(location, keeping: model.viewModel))
        let weather = services.weather
        context.perform {
            do throws(WeatherError) {
                let observation = try await weather.currentWeather(at: location)
                return .weather(.weatherLoaded(request: request, observation: observation))
            } catch {
                return .weather(.weatherFailed(request: request, error: error))
            }
        }
    }

    /// The lookup itself failed: `failed` with the typed text and the reason (quirk fixed: the original turned
    /// every geocoder error into "Not found", hiding an outage behind a wrong answer).
    func failedGeocoding(request: Int, error: WeatherError) {
        guard model.isCurrent(request) else { return }
        model.show(WeatherViewModelBuilder.buildFailed(locationName: model.requestedAddress, error: error))
    }

    /// The weather arrived for the current place: date, icon and summaries show.
    func weatherLoaded(request: Int, observation: WeatherObservation) {
        guard model.isCurrent(request), let location = model.location else { return }
        model.show(WeatherViewModelBuilder.build(location: location, observation: observation))
    }

    /// The weather fetch failed: `failed` with the reason and no weather (quirk fixed: the original kept the
    /// previous place's date, icon and summary next to the new name).
    func failedLoadingWeather(request: Int, error: WeatherError) {
        guard model.isCurrent(request), let location = model.location else { return }
        model.show(WeatherViewModelBuilder.buildFailed(locationName: location.name, error: error))
    }
}
