import Foundation

/// What a session gets from outside: its scheduler (time), random source, time zone, locale and log size.
public struct SessionEnvironment: Sendable {
    /// Runs delayed events; tells the wall-clock time.
    public var scheduler: any TimerScheduling
    /// Runs the features' asynchronous work (provider calls).
    public var effects: any EffectRunning
    /// The session's random source (seed it for repeatable bot choices).
    public var random: RandomSource
    /// The time zone dates are rendered in (default UTC).
    public var timeZone: TimeZone
    /// The locale identifier (`en_US` by default; `zh-Hans` switches the login texts to the original Chinese).
    public var locale: String
    /// How many entries the data-flow log keeps.
    public var logCapacity: Int

    /// Creates an environment.
    public init(
        scheduler: any TimerScheduling, effects: any EffectRunning = LiveEffectRunner(),
        random: RandomSource = .system(), timeZone: TimeZone = .gmt, locale: String = "en_US", logCapacity: Int = 256
    ) {
        self.scheduler = scheduler
        self.effects = effects
        self.random = random
        self.timeZone = timeZone
        self.locale = locale
        self.logCapacity = logCapacity
    }
}

/// One feature of a new session: its name and its model.
public struct SessionFeature {
    let name: String
    let host: any AnyFeatureHost

    /// Registers `model` under `key`.
    public init<Model: FeatureModel>(_ key: FeatureKey<Model>, model: Model) {
        name = key.name
        host = FeatureHost(name: key.name, model: model)
    }
}

/// What changed in one step of a session, as observers see it.
public struct SessionChange: Sendable, Equatable {
    /// The session-wide sequence number of the step's last event.
    public let sequence: Int
    /// The features whose version grew, with their new versions.
    public let versions: [String: Int]
    /// The session has closed (deleted or expired): the last call an observer gets, with no versions.
    public let isClose: Bool

    /// Creates a change.
    public init(sequence: Int, versions: [String: Int], isClose: Bool = false) {
        self.sequence = sequence
        self.versions = versions
        self.isClose = isClose
    }
}

/// The outcome of sending events to a session.
public struct SendReceipt: Sendable, Equatable {
    /// The feature's version after the events' synchronous part.
    public let version: Int
    /// The sequence number of the last event applied.
    public let sequence: Int

    /// Creates a receipt.
    public init(version: Int, sequence: Int) {
        self.version = version
        self.sequence = sequence
    }
}
