import Foundation
public import HTTPCore
public import Logging

/// Everything `viewhost` is configured with, after flags, environment, file and defaults were merged.
public struct AppConfiguration: Sendable {
    /// The HTTP server's address, limits and timeouts.
    public var http: HTTPServerConfiguration
    /// The lowest level logged.
    public var logLevel: Logger.Level
    /// Session lifetime and size.
    public var sessions: Sessions
    /// The simulated other side's pace and randomness.
    public var simulation: Simulation
    /// Server-sent event streams.
    public var streams: Streams
    /// Contacts and deliveries between sessions.
    public var contacts: Contacts
    /// Cross-origin access.
    public var cors: CORS
    /// HTTPS, when both paths are set.
    public var tls: TLS
    /// Where sessions are kept.
    public var store: Store
    /// Per-client and per-session request rates.
    public var rateLimits: RateLimits
    /// How log lines look and whether requests are logged.
    public var log: Log
    /// The features served, each configured by its own settings.
    public var features: HostedFeatures

    /// Per-client and per-session request rates (`limits.*PerClient`, `limits.*PerSession`); 0 turns one off.
    public struct RateLimits: Sendable, Hashable {
        /// Sessions one client address may create per minute.
        public var sessionsPerMinutePerClient = 600
        /// Events one session may post per second, all its participants together.
        public var eventsPerSecondPerSession = 200
        /// Events one member of a shared session may post per second (the session's rate alone bounds the owner).
        public var eventsPerSecondPerParticipant = 200

        /// The documented defaults.
        public init() {}
    }

    /// How log lines look and whether requests are logged.
    public struct Log: Sendable, Hashable {
        /// One line per request.
        public var access = true
        /// Text or JSON lines.
        public var format = LogFormat.text

        /// The documented defaults.
        public init() {}
    }

    /// The certificate and key for HTTPS.
    public struct TLS: Sendable, Hashable {
        /// The PEM certificate (chain) file.
        public var certificatePath: String?
        /// The PEM private key file.
        public var keyPath: String?

        /// Whether HTTPS is on (both paths given).
        public var isEnabled: Bool { certificatePath != nil && keyPath != nil }

        /// The documented defaults (plain HTTP).
        public init(certificatePath: String? = nil, keyPath: String? = nil) {
            self.certificatePath = certificatePath
            self.keyPath = keyPath
        }
    }

    /// Cross-origin access.
    public struct CORS: Sendable, Hashable {
        /// Origins allowed to call the API from a browser; `*` allows any. Empty: same-origin only.
        public var allowedOrigins: [String] = []

        /// The documented defaults.
        public init() {}
    }

    /// Server-sent event streams.
    public struct Streams: Sendable, Hashable {
        /// How often an idle stream gets a comment line.
        public var heartbeat: Duration = .seconds(15)
        /// Open streams one session may hold, all its participants together.
        public var maxPerSession = 8
        /// Open streams one member of a shared session may hold (the session's share alone bounds the owner).
        public var maxPerParticipant = 8
        /// Open streams in total.
        public var max = 20_000

        /// The documented defaults.
        public init() {}
    }

    /// Session lifetime and size.
    public struct Sessions: Sendable, Hashable {
        /// Idle time after which a session expires.
        public var idleTTL: Duration = .seconds(1800)
        /// Sessions kept in memory: with a durable store, the least recently used idle ones leave memory past it
        /// (they stay in the store and load again when asked for); with the memory store, creation answers 503.
        public var max = 200_000
        /// Entries kept in each session's data-flow log.
        public var logCapacity = 256
        /// How many of each session's latest inputs are kept for its past versions (0: none).
        public var historyVersions = 1000

        /// The documented defaults.
        public init() {}
    }

    /// Where sessions are kept.
    public struct Store: Sendable, Hashable {
        /// The kinds of store.
        public enum Kind: String, Sendable, CaseIterable {
            /// SQLite in `dataDir`: what was acknowledged survives a restart (the default).
            case sqlite
            /// Memory only: sessions end with the process.
            case memory
            /// PostgreSQL at `databaseURL`, shared by several nodes.
            case postgres
        }

        /// Which store.
        public var kind = Kind.sqlite
        /// The SQLite store's directory.
        public var dataDirectory = "data"
        /// `full` (survives power loss) or `normal` (survives a process crash).
        public var sync = "full"
        /// The SQLite store's size past which creating a session answers 503 (existing sessions go on); 0: none.
        public var maxMegabytes = 2048
        /// The PostgreSQL store's connection URI (with `kind` postgres).
        public var databaseURL: String?
        /// This node's name in leases and logs (`cluster.nodeId`); nil means the host name and the process id.
        public var nodeID: String?
        /// Where this node takes requests forwarded by the cluster's other nodes, `HOST:PORT`
        /// (`cluster.internalAddress`); nil: it forwards nothing, and takes over the sessions it is asked for.
        public var internalAddress: String?
        /// The secret every node of the cluster shares, carried by each forwarded request (`cluster.secret`, best
        /// set as `VIEWHOST_CLUSTER_SECRET`); needed with `internalAddress`.
        public var clusterSecret: String?

        /// The documented defaults.
        public init() {}

        /// This node's name: `nodeID`, or the host name and the process id.
        public var nodeName: String {
            nodeID ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
        }
    }

    /// The simulated other side's pace and randomness.
    public struct Simulation: Sendable, Hashable {
        /// Divides every simulated delay (1 = real time).
        public var speed = 1.0
        /// Seed for repeatable bot choices; nil draws one per session.
        public var seed: UInt64?

        /// The documented defaults.
        public init() {}
    }

    /// The embedded defaults (the values documented in `Config/README.md`). The store is only opened by
    /// ``makeStorage(_:features:historyInputs:database:)``: an app made in code (tests) keeps nothing on disk unless it passes a storage.
    public init(
        http: HTTPServerConfiguration = HTTPServerConfiguration(), logLevel: Logger.Level = .info,
        sessions: Sessions = Sessions(), simulation: Simulation = Simulation(), streams: Streams = Streams(),
        cors: CORS = CORS(), tls: TLS = TLS(), store: Store = Store(), rateLimits: RateLimits = RateLimits(),
        log: Log = Log(), contacts: Contacts = Contacts(), features: HostedFeatures = HostedFeatures()
    ) {
        self.contacts = contacts
        self.features = features
        self.rateLimits = rateLimits
        self.log = log
        self.store = store
        self.tls = tls
        self.streams = streams
        self.cors = cors
        self.http = http
        self.logLevel = logLevel
        self.sessions = sessions
        self.simulation = simulation
    }
}
