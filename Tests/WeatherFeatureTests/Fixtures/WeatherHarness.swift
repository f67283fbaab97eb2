import Foundation
import TestSupport
import WeatherAPI
import ViewHostAPI
import ViewModelCore
import WeatherFeature

/// One weather session on a manual scheduler and a manual request runner, recording every snapshot it emits.
final class WeatherHarness {
    let scheduler = ManualScheduler()
    let effects: ManualRequestRunner
    let session: Session
    let recorder: RecordingListener<WeatherApp>

    init(services: WeatherServices = .fixed()) {
        effects = ManualRequestRunner([services.requestRunner])
        session = Session(
            id: .random(), token: .random(), environment: SessionEnvironment(scheduler: scheduler, requests: effects),
            random: .seeded(1), features: [InitialFeature(WeatherApp.key, state: WeatherState(provider: services.providerName))])
        recorder = RecordingListener(session: session, feature: WeatherApp.key)
    }

    /// Sends events as a client would.
    @discardableResult
    func send(_ events: WeatherAppEvent...) -> SendReceipt? {
        try? session.send(events, to: WeatherApp.key, source: .client)
    }

    /// The current snapshot.
    var snapshot: WeatherSnapshot { session.viewModel(of: WeatherApp.key)!.value }

    /// The data-flow log.
    var log: [LogEntry] { session.log(after: 0).entries }
}
