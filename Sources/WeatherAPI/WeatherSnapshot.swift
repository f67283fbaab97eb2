import ViewHostAPI

/// The weather feature's whole view-model snapshot for one session (API.md, weather snapshot): the original
/// view model's five outputs, the request's status, which provider answered, and the `changeLocation` action
/// with the original's prompt.
///
/// ```json
/// {"locationName":"McGaheysville, VA","date":"Monday, Aug 28","icon":"c03d","summary":"Broken clouds - 24℉",
///  "forecastSummary":"\nSummary: Broken clouds","status":"ready","provider":"offline",
///  "observedAt":"2017-08-28T17:00:00Z","error":null,"actions":{"changeLocation":{…}}}
/// ```
public struct WeatherSnapshot: FeatureSnapshot {
    /// The screen's actions.
    public struct Actions: Codable, Equatable, Sendable {
        /// The location button's alert: posts `changeLocation` with the typed `location`.
        public let changeLocation: ActionDescriptor

        /// Creates the actions.
        public init(changeLocation: ActionDescriptor) {
            self.changeLocation = changeLocation
        }
    }

    /// `weather`.
    public static let feature = "weather"

    /// The place's name, `"Loading..."` or `"Not found"`.
    public let locationName: String
    /// The observation's day, such as `Monday, Aug 28`.
    public let date: String
    /// The Weatherbit icon name, such as `c03d`, or null.
    @Nullable public private(set) var icon: String?
    /// Such as `Broken clouds - 24℉`.
    public let summary: String
    /// Such as `"\nSummary: Broken clouds"` (it starts with a newline, as in the original).
    public let forecastSummary: String
    /// `loading`, `ready`, `notFound` or `failed`.
    public let status: WeatherStatus
    /// The provider that serves this session: `offline`, `open-meteo` or `weatherbit`.
    public let provider: String
    /// When the shown weather was observed (ISO 8601), or null.
    @Nullable public private(set) var observedAt: String?
    /// Why the last request failed, or null.
    @Nullable public private(set) var error: String?
    /// The screen's actions.
    public let actions: Actions

    /// The `changeLocation` action: the original's "Choose location" alert with its one "Submit" button.
    public static let changeLocationAction = ActionDescriptor(
        prompt: ActionPrompt(title: "Choose location", submit: "Submit")
    ) { (location: String) in WeatherIntent.changeLocation(location: location) }

    /// Creates a snapshot with the `changeLocation` action.
    public init(
        locationName: String, date: String, icon: String?, summary: String, forecastSummary: String,
        status: WeatherStatus, provider: String, observedAt: String?, error: String?
    ) {
        self.locationName = locationName
        self.date = date
        self.icon = icon
        self.summary = summary
        self.forecastSummary = forecastSummary
        self.status = status
        self.provider = provider
        self.observedAt = observedAt
        self.error = error
        actions = Actions(changeLocation: Self.changeLocationAction)
    }
}

/// Where the current `changeLocation` stands, as the snapshot's `status` says it. The original has no such
/// field: a client could only guess from `"Loading..."` and `"Not found"`.
public enum WeatherStatus: String, Sendable, Equatable, Codable, CaseIterable {
    /// A lookup or a weather fetch is under way; the fields other than `locationName` keep their last values.
    case loading
    /// The place was found and its weather is shown.
    case ready
    /// The geocoder found no place: `locationName` is `"Not found"` and the other fields are empty.
    case notFound
    /// A provider failed; `error` says why and the weather fields are empty.
    case failed
}

extension WeatherSnapshot {
    /// The place, its weather and the status: `Paris, France: Light rain - 46℉ (ready)`.
    public var summaryLine: String { "\(locationName): \(summary) (\(status.rawValue))" }
}
