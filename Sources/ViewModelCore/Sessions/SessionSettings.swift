import Foundation

/// What a session is made with and never changes: its time zone and locale, how fast its simulated delays run, and
/// how much data-flow log it keeps. Part of the session's value, so a replay renders and schedules as the original.
public struct SessionSettings: Codable, Hashable, Sendable {
    /// The zone dates are rendered in (default UTC).
    public var timeZone: TimeZone
    /// The locale identifier (`en_US` by default; `zh-Hans` switches the login texts to the original Chinese).
    public var locale: String
    /// How much faster than real time simulated delays pass (1 = real time).
    public var simulationSpeed: Double
    /// How many entries the data-flow log keeps.
    public var logCapacity: Int

    /// Creates settings.
    public init(timeZone: TimeZone = .gmt, locale: String = "en_US", simulationSpeed: Double = 1, logCapacity: Int = 256) {
        self.timeZone = timeZone
        self.locale = locale
        self.simulationSpeed = simulationSpeed > 0 ? simulationSpeed : 1
        self.logCapacity = max(1, logCapacity)
    }

    /// The real time `delay` of simulated time takes.
    func realDelay(of delay: Duration) -> Duration {
        let delay = max(delay, .zero)
        return simulationSpeed == 1 ? delay : delay / simulationSpeed
    }
}
