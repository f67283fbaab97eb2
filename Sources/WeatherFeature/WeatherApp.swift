import ViewModelCore

/// WeatherFeature hosts the raywenderlich "Grados" weather screen (seed 004) per session: a view model that
/// shows a place's current weather and changes place on request. It knows no HTTP: events come in through
/// ViewModelCore's session, provider calls go out through ``Geocoding`` and ``WeatherProviding``, chosen once
/// per process by ``WeatherServices``. The layer depends only on ViewModelCore (and Foundation).
///
/// `WeatherApp` is the composition root of one session's weather feature: its model, router and handler. The
/// original's view model was one object per app; here each session owns one, and every session shares the
/// process's one ``WeatherServices`` (cheap for 100,000 sessions: a session holds a few strings).
///
/// ```swift
/// let app = WeatherApp(services: .offline)
/// let session = Session(id: .random(), token: .random(), environment: environment,
///                       features: [SessionFeature(WeatherApp.key, model: app)])
/// session.send([.start], to: WeatherApp.key)                    // "Loading...", then McGaheysville, VA
/// session.send([.changeLocation("Tallinn, Estonia")], to: WeatherApp.key)
/// ```
public final class WeatherApp: FeatureModel {
    public typealias Event = WeatherAppEvent
    public typealias Snapshot = WeatherSnapshot

    /// The feature's key: `weather`.
    public static let key = FeatureKey<WeatherApp>("weather")
    /// The original's `defaultAddress` (the tutorial's; the republished fork uses "Malappuram, Kerala").
    public static let defaultAddress = "McGaheysville, VA"

    let model = WeatherModel()
    private let router: WeatherEventRouter
    private let providerName: String

    /// Creates the weather feature of one session.
    /// - Parameter services: The process's geocoder and weather provider.
    public init(services: WeatherServices) {
        providerName = services.providerName
        router = WeatherEventRouter(handler: WeatherEventHandler(model: model, services: services))
    }

    /// Applies one event; the version grows only when the screen's view model changed (quirk fixed: the
    /// original's `Box` notified on every set, even of an equal value).
    public func apply(_ event: WeatherAppEvent, context: inout FeatureContext<WeatherAppEvent>) {
        let before = model.viewModel
        switch event {
        case .start:
            context.route(.weather(.changeLocation(to: Self.defaultAddress)), source: context.source)
        case .changeLocation(let address):
            router.route(.changeLocation(to: address), context: &context)
        case .weather(let event):
            router.route(event, context: &context)
        }
        if model.viewModel != before { context.markChanged() }
    }

    /// The snapshot of the current state.
    public func makeViewModel() -> WeatherSnapshot {
        WeatherSnapshot(model.viewModel, provider: providerName)
    }
}
