import ViewHostAPI
import ViewModelCore
import WeatherAPI

/// WeatherFeature hosts the raywenderlich "Grados" weather screen (seed 004) per session: a view model that
/// shows a place's current weather and changes place on request. It knows no HTTP: events come in through
/// ViewModelCore's session; provider calls go out as requests (data) that ``WeatherServices/requestRunner`` runs
/// with the process's ``Geocoding`` and ``WeatherProviding``, and come back as events. The layer depends only on
/// ViewModelCore, ViewHostAPI and Foundation.
///
/// `WeatherApp` is the feature as a pure state machine over ``WeatherState``: its router and handler are functions
/// of that state.
///
/// ```swift
/// var state = WeatherState(provider: "offline")
/// var context = FeatureContext<WeatherApp>(now: .now)
/// WeatherApp.apply(.start, to: &state, context: &context)   // "Loading...", and a request to geocode
/// context.requestedWork                                     // [.geocode(request: 1, address: "McGaheysville, VA")]
/// ```
public enum WeatherApp: Feature {
    /// What the screen shows, the current request, the place it is for, and the provider that serves the session.
    public typealias State = WeatherState
    /// The session's start, a client's change of location, or a provider's answer (never posted by clients).
    public typealias Event = WeatherAppEvent
    /// The outside work the feature asks for (geocoding, a forecast), carried out by the app's request runner.
    public typealias Request = WeatherRequest
    /// What a client may post (`changeLocation`).
    public typealias Intent = WeatherIntent
    /// What a client reads: the weather screen's view model.
    public typealias Snapshot = WeatherSnapshot

    /// The original's `defaultAddress` (the tutorial's; the republished fork uses "Malappuram, Kerala").
    public static let defaultAddress = "McGaheysville, VA"

    /// A location change is always possible (the latest one wins).
    public static func check(_ event: WeatherAppEvent, in state: WeatherState) throws(EventRefusal) {}

    /// Applies one event; the version grows only when the screen's view model changed (quirk fixed: the
    /// original's `Box` notified on every set, even of an equal value).
    public static func apply(
        _ event: WeatherAppEvent, to state: inout WeatherState, context: inout FeatureContext<WeatherApp>
    ) {
        let before = state.viewModel
        switch event {
        case .start:
            context.route(.weather(.changeLocation(to: defaultAddress)), source: context.source)
        case .changeLocation(let address):
            WeatherEventRouter.route(.changeLocation(to: address), state: &state, context: &context)
        case .weather(let event):
            WeatherEventRouter.route(event, state: &state, context: &context)
        }
        if state.viewModel != before { context.markChanged() }
    }

    /// The snapshot of the current state.
    public static func snapshot(of state: WeatherState, settings: SessionSettings) -> WeatherSnapshot {
        WeatherSnapshot(state.viewModel, provider: state.provider)
    }

    /// The feature's event for a client's intent.
    public static func event(for intent: WeatherIntent) -> WeatherAppEvent {
        switch intent {
        case .changeLocation(let location): .changeLocation(location)
        }
    }
}
