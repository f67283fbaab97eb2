import Foundation
import ViewHostAPI
import ViewModelCore
import WeatherAPI

/// What a weather feature read from outside (a journal export) is held to: what a client's address and a
/// provider's answers could have made.
extension WeatherApp {
    /// The longest text a provider's answer, or a view model built from one, may hold in an imported value.
    static let answerTextLimit = TextLimit(characters: 1024)
    /// The most places a geocoder's answer may list in an imported value.
    static let maxGeocodedPlaces = 100

    /// Refuses a state the feature never makes: an address past ``WeatherIntent/locationLimit``, texts past
    /// ``answerTextLimit``, a place off the globe, a request number out of range.
    public static func validate(state: WeatherState) throws(ValueRejection) {
        try ValueRejection.check(state.currentRequest, in: 0...SessionCore.maxCounter, field: "currentRequest")
        try ValueRejection.check(state.requestedAddress, within: WeatherIntent.locationLimit, field: "requestedAddress")
        try ValueRejection.check(state.provider, within: TextLimit(characters: 64), field: "provider")
        if let location = state.location { try ValueRejection.inside("location") { try validate(location: location) } }
        let view = state.viewModel
        for (field, text) in [
            ("locationName", view.locationName), ("date", view.date), ("icon", view.icon ?? ""),
            ("summary", view.summary),
            ("forecastSummary", view.forecastSummary), ("observedAt", view.observedAt ?? ""),
            ("error", view.error ?? ""),
        ] {
            try ValueRejection.check(text, within: answerTextLimit, field: "viewModel.\(field)")
        }
    }

    /// Refuses an event the feature never makes: an address past ``WeatherIntent/locationLimit``, an answer with
    /// places off the globe, texts past ``answerTextLimit`` or a temperature no thermometer reads.
    public static func validate(event: WeatherAppEvent) throws(ValueRejection) {
        switch event {
        case .start:
            break
        case .changeLocation(let address), .weather(.changeLocation(let address)):
            try ValueRejection.check(address, within: WeatherIntent.locationLimit, field: "changeLocation")
        case .weather(.geocoded(let request, let locations)):
            try ValueRejection.check(request, in: 0...SessionCore.maxCounter, field: "geocoded.request")
            try ValueRejection.check(count: locations.count, atMost: maxGeocodedPlaces, field: "geocoded.locations")
            for (index, location) in locations.enumerated() {
                try ValueRejection.inside("geocoded.locations[\(index)]") { try validate(location: location) }
            }
        case .weather(.weatherLoaded(let request, let observation)):
            try ValueRejection.check(request, in: 0...SessionCore.maxCounter, field: "weatherLoaded.request")
            guard observation.temperatureFahrenheit.isFinite, abs(observation.temperatureFahrenheit) <= 1_000 else {
                throw ValueRejection(
                    field: "weatherLoaded.observation.temperatureFahrenheit", reason: "must be -1000 to 1000")
            }
            for text in [observation.iconName, observation.description, observation.timeZoneIdentifier ?? ""] {
                try ValueRejection.check(text, within: answerTextLimit, field: "weatherLoaded.observation")
            }
            try ValueRejection.check(observation.observedAt, field: "weatherLoaded.observation.observedAt")
        case .weather(.geocodingFailed(let request, let error)), .weather(.weatherFailed(let request, let error)):
            try ValueRejection.check(request, in: 0...SessionCore.maxCounter, field: "request")
            try ValueRejection.inside("error") { try validate(error: error) }
        }
    }

    /// Refuses a pending request the feature never makes: an address past ``WeatherIntent/locationLimit``, a place
    /// off the globe.
    public static func validate(request: WeatherRequest) throws(ValueRejection) {
        switch request {
        case .geocode(let number, let address):
            try ValueRejection.check(number, in: 0...SessionCore.maxCounter, field: "geocode.request")
            try ValueRejection.check(address, within: WeatherIntent.locationLimit, field: "geocode.address")
        case .currentWeather(let number, let location):
            try ValueRejection.check(number, in: 0...SessionCore.maxCounter, field: "currentWeather.request")
            try ValueRejection.inside("currentWeather.location") { try validate(location: location) }
        }
    }

    private static func validate(location: Location) throws(ValueRejection) {
        try ValueRejection.check(location.name, within: answerTextLimit, field: "name")
        guard location.latitude.isFinite, abs(location.latitude) <= 90, location.longitude.isFinite,
            abs(location.longitude) <= 180
        else { throw ValueRejection(field: "latitude", reason: "and longitude must name a place on the globe") }
        try ValueRejection.check(
            location.timeZoneIdentifier ?? "", within: TextLimit(characters: 64), field: "timeZoneIdentifier")
    }

    private static func validate(error: WeatherError) throws(ValueRejection) {
        switch error {
        case .timedOut(let service), .unreachable(let service), .invalidResponse(let service):
            try ValueRejection.check(service, within: TextLimit(characters: 64), field: "service")
        case .badStatus(let service, let status):
            try ValueRejection.check(service, within: TextLimit(characters: 64), field: "service")
            try ValueRejection.check(status, in: 0...999, field: "status")
        }
    }
}
