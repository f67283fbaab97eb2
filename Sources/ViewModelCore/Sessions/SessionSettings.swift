import Foundation

/// What a session is made with and never changes: its time zone and locale, how fast its simulated delays run, and
/// how much data-flow log it keeps. Part of the session's value, so a replay renders and schedules as the original.
///
/// The ranges below are the ones a server's configuration and a new session's options take (stated once, here);
/// a session value read from outside (a journal export) is held to them too (``problem``).
public struct SessionSettings: Codable, Hashable, Sendable {
    /// The zone dates are rendered in (default UTC).
    public var timeZone: TimeZone
    /// The locale identifier (`en_US` by default; `zh-Hans` switches the login texts to the original Chinese).
    public var locale: String
    /// How much faster than real time simulated delays pass (1 = real time).
    public var simulationSpeed: Double
    /// How many entries the data-flow log keeps.
    public var logCapacity: Int

    /// The log sizes a session may have (`sessions.logCapacity`).
    public static let logCapacities: ClosedRange<Int> = 1...100_000
    /// The simulation speeds a session may have (`simulation.speed`).
    public static let simulationSpeeds: ClosedRange<Double> = 0.001...1_000_000
    /// The longest time zone identifier, in UTF-8 bytes (IANA's longest is 32).
    public static let maxTimeZoneBytes = 64
    /// The longest locale identifier, in UTF-8 bytes (BCP 47 tags in practice stay far below).
    public static let maxLocaleBytes = 35
    /// The longest real delay a timer may wait: about a hundred years, beyond which a delay is cut to it (a
    /// `Duration` past it would not fit the arithmetic that turns it into an instant).
    public static let maxRealDelay = Duration.seconds(3_155_760_000)

    /// Creates settings.
    public init(
        timeZone: TimeZone = .gmt, locale: String = "en_US", simulationSpeed: Double = 1, logCapacity: Int = 256
    ) {
        self.timeZone = timeZone
        self.locale = locale
        self.simulationSpeed = simulationSpeed > 0 ? simulationSpeed : 1
        self.logCapacity = max(1, logCapacity)
    }

    /// Whether `locale` is a locale identifier a session may have: 1 to ``maxLocaleBytes`` ASCII letters, digits,
    /// `_` and `-` (`en_US`, `zh-Hans`). Reads at most ``maxLocaleBytes`` + 1 bytes, whatever the string's length.
    public static func isLocale(_ locale: String) -> Bool {
        var count = 0
        for byte in locale.utf8 {
            count += 1
            guard count <= maxLocaleBytes else { return false }
            let letter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            let digit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            guard letter || digit || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") else { return false }
        }
        return count > 0
    }

    /// What is wrong with these settings for a session, naming the field; nil when a session may have them.
    public var problem: ValueRejection? {
        if !Self.logCapacities.contains(logCapacity) {
            return ValueRejection(
                field: "logCapacity",
                reason:
                    "must be \(Self.logCapacities.lowerBound) to \(Self.logCapacities.upperBound), not \(logCapacity)")
        }
        if !simulationSpeed.isFinite || !Self.simulationSpeeds.contains(simulationSpeed) {
            return ValueRejection(
                field: "simulationSpeed",
                reason:
                    "must be \(Self.simulationSpeeds.lowerBound) to \(Int(Self.simulationSpeeds.upperBound)), not \(simulationSpeed)"
            )
        }
        if !Self.isLocale(locale) {
            return ValueRejection(
                field: "locale",
                reason: "must be a locale identifier of 1 to \(Self.maxLocaleBytes) letters, digits, '_' and '-'")
        }
        if timeZone.identifier.utf8.count > Self.maxTimeZoneBytes {
            return ValueRejection(
                field: "timeZone", reason: "must be a time zone identifier of at most \(Self.maxTimeZoneBytes) bytes")
        }
        return nil
    }

    /// The real time `delay` of simulated time takes, at most ``maxRealDelay`` (so whatever a feature asks for and
    /// whatever the speed, the instant it falls due can be computed).
    func realDelay(of delay: Duration) -> Duration {
        let delay = max(delay, .zero)
        guard simulationSpeed != 1 else { return min(delay, Self.maxRealDelay) }
        // Checked in seconds as a Double first: `Duration / Double` traps when the quotient does not fit its Int128
        // (a speed of 1e-300). Within the bound, the quotient as it always was, so replays schedule to the attosecond.
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        let real = seconds / simulationSpeed
        guard simulationSpeed > 0, real.isFinite, real < Double(Self.maxRealDelay.components.seconds) else {
            return Self.maxRealDelay
        }
        return delay / simulationSpeed
    }
}
