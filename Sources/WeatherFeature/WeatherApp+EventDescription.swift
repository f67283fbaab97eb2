import ViewModelCore

extension WeatherApp {
    /// How the data-flow log shows each event, named as the seed names them (`changeLocation`, `geocoded`,
    /// `weatherLoaded`, `weatherFailed`; `geocodingFailed` is new, since the original had no such path).
    public static func describe(_ event: WeatherAppEvent) -> EventDescription {
        switch event {
        case .start:
            EventDescription(name: "start")
        case .changeLocation(let address):
            describe(.weather(.changeLocation(to: address)))
        case .weather(.changeLocation(let address)):
            EventDescription(name: "changeLocation", summary: "location=\(quoted(address))")
        case .weather(.geocoded(let request, let locations)):
            EventDescription(
                name: "geocoded",
                summary: "request=\(request) count=\(locations.count)"
                    + (locations.first.map { " first=\(quoted($0.name))" } ?? ""))
        case .weather(.geocodingFailed(let request, let error)):
            EventDescription(name: "geocodingFailed", summary: "request=\(request) error=\(quoted(error.description))")
        case .weather(.weatherLoaded(let request, let observation)):
            EventDescription(
                name: "weatherLoaded",
                summary: "request=\(request) icon=\(observation.iconName) temp=\(observation.temperatureFahrenheit)")
        case .weather(.weatherFailed(let request, let error)):
            EventDescription(name: "weatherFailed", summary: "request=\(request) error=\(quoted(error.description))")
        }
    }

    private static func quoted(_ text: String) -> String {
        "\"\(EventDescription.shortened(text, maxBytes: 80))\""
    }
}
