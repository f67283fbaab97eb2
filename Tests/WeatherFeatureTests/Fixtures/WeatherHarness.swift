import Foundation
import ViewHostAPI
import ViewHostTesting
import ViewModelCore
import WeatherAPI
import WeatherFeature

/// One weather session in a ``TestHost`` whose requests run with `services`, each only when a test says so, in
/// the order it says.
final class WeatherHarness {
    private(set) var host: TestHost
    lazy var recorder = Recorder(harness: self)
    lazy var effects = Effects(harness: self)

    init(services: WeatherServices = .fixed()) {
        host = TestHost(
            WeatherApp.self, state: WeatherState(provider: services.providerName), requests: services.perform, seed: 1)
    }

    /// Sends events as a client would.
    @discardableResult
    func send(_ events: WeatherAppEvent...) -> TestStep? {
        try? host.send(events, to: WeatherApp.key)
    }

    /// The current snapshot.
    var snapshot: WeatherSnapshot { host.snapshot(of: WeatherApp.key) }

    /// The current version.
    var version: Int { host.version(of: WeatherApp.key) }

    /// The data-flow log.
    var log: [LogEntry] { host.log }

    /// The snapshots emitted, and the ones since the last ``drain()``.
    struct Recorder {
        unowned let harness: WeatherHarness
        private var drained = 0

        init(harness: WeatherHarness) {
            self.harness = harness
        }

        var snapshots: [WeatherSnapshot] { Array(harness.host.snapshots(of: WeatherApp.key).dropFirst(drained).map(\.snapshot)) }
        var versions: [Int] { Array(harness.host.snapshots(of: WeatherApp.key).dropFirst(drained).map(\.version)) }

        mutating func drain() -> [WeatherSnapshot] {
            let new = snapshots
            drained += new.count
            return new
        }
    }

    /// The provider calls waiting, run one at a time with the services.
    struct Effects {
        unowned let harness: WeatherHarness

        var pendingCount: Int { harness.host.requests(of: WeatherApp.key).count }

        /// Runs the oldest pending call and applies its answer.
        func runNext() async {
            guard let request = harness.host.requests(of: WeatherApp.key).first else { return }
            await harness.host.run(request, of: WeatherApp.key)
        }

        /// Runs the newest pending call and applies its answer.
        func runLast() async {
            guard let request = harness.host.requests(of: WeatherApp.key).last else { return }
            await harness.host.run(request, of: WeatherApp.key)
        }

        /// Runs every call, and those their answers make, in order.
        func runAll() async {
            await harness.host.runRequests()
        }
    }
}
