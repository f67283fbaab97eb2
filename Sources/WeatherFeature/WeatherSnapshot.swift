import ViewModelCore

/// The weather feature's whole view-model snapshot for one session (API.md, weather snapshot): the original
/// view model's five outputs, the request's status, which provider answered, and the `changeLocation` action
/// with the original's prompt. The app layer adds `feature` and `version`, and the action's `method` and `href`.
///
/// ```json
/// {"locationName":"McGaheysville, VA","date":"Monday, Aug 28","icon":"c03d","summary":"Broken clouds - 24℉",
///  "forecastSummary":"\nSummary: Broken clouds","status":"ready","provider":"offline",
///  "observedAt":"2017-08-28T17:00:00Z","error":null,"actions":{"changeLocation":{…}}}
/// ```
public struct WeatherSnapshot: ViewModel {
    /// The screen's actions.
    public struct Actions: Encodable, Equatable, Sendable {
        /// The location button's alert: posts `changeLocation` with the typed `location`.
        public let changeLocation: ActionDescriptor
    }

    /// The place's name, `"Loading..."` or `"Not found"`.
    public let locationName: String
    /// The observation's day, such as `Monday, Aug 28`.
    public let date: String
    /// The Weatherbit icon name, such as `c03d`, or null.
    public let icon: String?
    /// Such as `Broken clouds - 24℉`.
    public let summary: String
    /// Such as `"\nSummary: Broken clouds"` (it starts with a newline, as in the original).
    public let forecastSummary: String
    /// `loading`, `ready`, `notFound` or `failed`.
    public let status: WeatherStatus
    /// The provider that serves this session: `offline`, `open-meteo` or `weatherbit`.
    public let provider: String
    /// When the shown weather was observed (ISO 8601), or null.
    public let observedAt: String?
    /// Why the last request failed, or null.
    public let error: String?
    /// The screen's actions.
    public let actions: Actions

    /// The `changeLocation` action: the original's "Choose location" alert with its one "Submit" button.
    public static let changeLocationAction = ActionDescriptor(
        event: "changeLocation", fields: ["location": "{location}"],
        prompt: ActionPrompt(title: "Choose location", submit: "Submit"))

    /// Creates the snapshot of `viewModel` as served by `provider`.
    package init(_ viewModel: WeatherViewModel, provider: String) {
        locationName = viewModel.locationName
        date = viewModel.date
        icon = viewModel.icon
        summary = viewModel.summary
        forecastSummary = viewModel.forecastSummary
        status = viewModel.status
        self.provider = provider
        observedAt = viewModel.observedAt
        error = viewModel.error
        actions = Actions(changeLocation: Self.changeLocationAction)
    }

    private enum CodingKeys: String, CodingKey {
        case locationName, date, icon, summary, forecastSummary, status, provider, observedAt, error, actions
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(locationName, forKey: .locationName)
        try container.encode(date, forKey: .date)
        try container.encode(icon, forKey: .icon)  // null, not absent, as the original's initial snapshot shows
        try container.encode(summary, forKey: .summary)
        try container.encode(forecastSummary, forKey: .forecastSummary)
        try container.encode(status, forKey: .status)
        try container.encode(provider, forKey: .provider)
        try container.encode(observedAt, forKey: .observedAt)
        try container.encode(error, forKey: .error)
        try container.encode(actions, forKey: .actions)
    }
}
