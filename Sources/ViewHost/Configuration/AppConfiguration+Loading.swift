import Configuration
import Foundation
import HTTPCore
import Logging
import SystemPackage
import ViewHostJSON
import ViewModelCore

extension AppConfiguration {
    /// Where configuration comes from, highest precedence first: flags, then `VIEWHOST_*` environment
    /// variables, then the JSON file, then the embedded defaults.
    public struct Sources: Sendable {
        /// Values given as command-line flags, by key path (`port`, `logLevel`, …), as typed on the command line.
        public var flags: [String: String]
        /// The process environment.
        public var environment: [String: String]
        /// The JSON file to read.
        public var filePath: String
        /// Whether the file was named explicitly (`--config`): then it must exist. The default file may be absent.
        public var fileIsRequired: Bool

        /// Creates sources.
        public init(
            flags: [String: String] = [:], environment: [String: String] = [:],
            filePath: String = "Config/viewhost.json", fileIsRequired: Bool = false
        ) {
            self.flags = flags
            self.environment = environment
            self.filePath = filePath
            self.fileIsRequired = fileIsRequired
        }
    }

    /// Loads and validates the configuration of the server and of `features` (each reads its own settings).
    /// - Parameters:
    ///   - sources: Flags, environment and file.
    ///   - features: The features the app serves.
    /// - Returns: The merged configuration.
    /// - Throws: `ConfigurationError` naming the first bad key or file, or why the features cannot be served.
    public static func load(from sources: Sources, features: [FeatureRegistration] = [])
        async throws(ConfigurationError)
        -> AppConfiguration
    {
        try await loadReportingDefaults(from: sources, features: features).configuration
    }

    /// ``load(from:features:)``, with the defaults it fell back to (nothing set those keys), by key path.
    static func loadReportingDefaults(from sources: Sources, features: [FeatureRegistration] = [])
        async throws(ConfigurationError) -> (configuration: AppConfiguration, defaults: [String: JSONValue])
    {
        try HostedFeatures.check(features, serverKeys: ConfigurationKey.server)
        let keys = Dictionary(
            (ConfigurationKey.server + features.flatMap(\.settings)).map { ($0.path, $0) }, uniquingKeysWith: { $1 })
        for flag in sources.flags.keys where keys[flag] == nil {
            preconditionFailure("flag for unknown configuration key \(flag)")
        }
        let fileKeys = try fileKeyPaths(sources, keys: keys)
        let loader = try await ValueLoader(sources: sources, keys: keys, fileKeys: fileKeys)
        return (try loader.makeConfiguration(features: features), loader.defaultsRead.all)
    }

    /// The dotted key paths of the file's leaf values; throws for unknown keys and malformed files.
    private static func fileKeyPaths(_ sources: Sources, keys: [String: ConfigurationKey]) throws(ConfigurationError)
        -> Set<String>
    {
        let path = sources.filePath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if sources.fileIsRequired { throw .unreadableFile(path: path, reason: "no such file") }
            return []
        }
        guard !isDirectory.boolValue else { throw .unreadableFile(path: path, reason: "it is a directory") }
        let object: Any
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            object = try JSONSerialization.jsonObject(with: data)
        } catch let error as CocoaError where error.code == .fileReadNoPermission {
            throw .unreadableFile(path: path, reason: "permission denied")
        } catch {
            throw .malformedFile(path: path, reason: "\((error as NSError).localizedDescription)")
        }
        guard let root = object as? [String: Any] else {
            throw .malformedFile(path: path, reason: "the top level must be an object")
        }
        var paths = Set<String>()
        try collectPaths(root, prefix: "", into: &paths, file: path, keys: keys)
        return paths
    }

    private static func collectPaths(
        _ object: [String: Any], prefix: String, into paths: inout Set<String>, file: String,
        keys: [String: ConfigurationKey]
    ) throws(ConfigurationError) {
        for (name, value) in object {
            let path = prefix.isEmpty ? name : "\(prefix).\(name)"
            if value is NSNull, keys[path] != nil {
                continue  // null means "not set here": the default (or a lower source) applies
            } else if let nested = value as? [String: Any], keys[path] == nil {
                try collectPaths(nested, prefix: path, into: &paths, file: file, keys: keys)
            } else {
                guard keys[path] != nil else { throw .unknownKey(key: path, path: file) }
                paths.insert(path)
            }
        }
    }
}

/// Reads each key through swift-configuration's provider chain and checks its range; a feature reads its own
/// settings through it too (``FeatureSettings``).
struct ValueLoader: FeatureSettings {
    let sources: AppConfiguration.Sources
    let keys: [String: ConfigurationKey]
    let fileKeys: Set<String>
    let reader: ConfigReader
    /// The defaults taken, for the test that keeps them equal to the documented ones.
    let defaultsRead = DefaultsRead()

    init(sources: AppConfiguration.Sources, keys: [String: ConfigurationKey], fileKeys: Set<String>)
        async throws(ConfigurationError)
    {
        self.sources = sources
        self.keys = keys
        self.fileKeys = fileKeys
        var flagValues: [AbsoluteConfigKey: ConfigValue] = [:]
        for (path, text) in sources.flags {
            guard let key = keys[path] else { continue }
            flagValues[AbsoluteConfigKey(ConfigKey(path))] = try Self.typed(text, key: key, source: "flag")
        }
        let environment = KeyMappingProvider(
            upstream: EnvironmentVariablesProvider(environmentVariables: sources.environment)
        ) { key in key.prepending(["viewhost"]) }
        var providers: [any ConfigProvider] = [InMemoryProvider(name: "flags", values: flagValues), environment]
        if !fileKeys.isEmpty {
            do {
                providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(sources.filePath)))
            } catch {
                throw .malformedFile(path: sources.filePath, reason: "\(error)")
            }
        }
        reader = ConfigReader(providers: providers)
    }

    func makeConfiguration(features: [FeatureRegistration]) throws(ConfigurationError) -> AppConfiguration {
        var http = HTTPServerConfiguration()
        http.host = try string("host", default: http.host) { $0.isEmpty ? "must not be empty" : nil }
        http.port = try integer("port", default: http.port, in: 0...65535)
        http.eventLoopCount = try integer("server.eventLoops", default: 0, in: 0...1024)
        http.reusePort = try boolean("server.reusePort", default: http.reusePort)
        http.backlog = Int32(try integer("server.backlog", default: Int(http.backlog), in: 1...65535))
        http.maxConnections = try integer("server.maxConnections", default: http.maxConnections, in: 1...1_000_000)
        http.limits.maxRequestLineBytes = try integer(
            "limits.maxRequestLineBytes", default: http.limits.maxRequestLineBytes, in: 64...1_048_576)
        http.limits.maxHeaderBytes = try integer(
            "limits.maxHeaderBytes", default: http.limits.maxHeaderBytes, in: 256...1_048_576)
        http.limits.maxHeaderCount = try integer(
            "limits.maxHeaderCount", default: http.limits.maxHeaderCount, in: 1...10_000)
        http.limits.maxBodyBytes = try integer(
            "limits.maxBodyBytes", default: http.limits.maxBodyBytes, in: 0...1_073_741_824)
        http.timeouts.headerRead = try seconds("timeouts.headerReadSeconds", default: http.timeouts.headerRead)
        http.timeouts.bodyRead = try seconds("timeouts.bodyReadSeconds", default: http.timeouts.bodyRead)
        http.timeouts.idle = try seconds("timeouts.idleSeconds", default: http.timeouts.idle)
        http.timeouts.write = try seconds("timeouts.writeSeconds", default: http.timeouts.write)
        http.timeouts.drain = try seconds("timeouts.drainSeconds", default: http.timeouts.drain)
        http.timeouts.lingeringClose = try seconds(
            "timeouts.lingeringCloseSeconds", default: http.timeouts.lingeringClose)
        http.timeouts.handshake = try seconds("timeouts.handshakeSeconds", default: http.timeouts.handshake)
        http.compression.isEnabled = try boolean("compression.enabled", default: http.compression.isEnabled)
        http.compression.minimumBytes = try integer(
            "compression.minimumBytes", default: http.compression.minimumBytes, in: 0...1_073_741_824)
        http.trustedProxies = TrustedProxies(
            try stringList("proxy.trusted", default: []) { text in
                IPAddressRange(text) == nil ? "'\(text)' is not an address or CIDR range such as 10.0.0.0/8" : nil
            }.compactMap(IPAddressRange.init))
        let levelName = try string("logLevel", default: "info") { text in
            Logger.Level(rawValue: text.lowercased()) == nil
                ? "expected one of trace, debug, info, notice, warning, error, critical" : nil
        }
        var sessions = AppConfiguration.Sessions()
        // A durable session may be kept for long (a list its user opens once a month): up to ten years.
        sessions.idleTTL = try seconds("sessions.idleTtlSeconds", default: sessions.idleTTL, atMost: 315_360_000)
        sessions.max = try integer("sessions.max", default: sessions.max, in: 1...10_000_000)
        sessions.logCapacity = try integer(
            "sessions.logCapacity", default: sessions.logCapacity, in: SessionSettings.logCapacities)
        sessions.historyVersions = try integer(
            "sessions.historyVersions", default: sessions.historyVersions, in: 0...1_000_000)
        var simulation = AppConfiguration.Simulation()
        simulation.speed = try number(
            "simulation.speed", default: simulation.speed, in: SessionSettings.simulationSpeeds)
        if source(of: "simulation.seed") != nil {
            simulation.seed = UInt64(try integer("simulation.seed", default: 0, in: 0...Int.max))
        }
        var streams = AppConfiguration.Streams()
        streams.heartbeat = try seconds("streams.heartbeatSeconds", default: streams.heartbeat)
        streams.maxPerSession = try integer("streams.maxPerSession", default: streams.maxPerSession, in: 1...100_000)
        streams.max = try integer("streams.max", default: streams.max, in: 1...1_000_000)
        streams.maxPerParticipant = try integer(
            "streams.maxPerParticipant", default: streams.maxPerParticipant, in: 1...1000)
        var cors = AppConfiguration.CORS()
        cors.allowedOrigins = try stringList("cors.allowedOrigins", default: []) { origin in
            origin == "*" || origin.hasPrefix("http://") || origin.hasPrefix("https://")
                ? nil : "'\(origin)' is not an origin such as https://example.com"
        }
        var rateLimits = AppConfiguration.RateLimits()
        rateLimits.sessionsPerMinutePerClient = try integer(
            "limits.sessionsPerMinutePerClient", default: rateLimits.sessionsPerMinutePerClient, in: 0...1_000_000)
        rateLimits.eventsPerSecondPerSession = try integer(
            "limits.eventsPerSecondPerSession", default: rateLimits.eventsPerSecondPerSession, in: 0...1_000_000)
        rateLimits.eventsPerSecondPerParticipant = try integer(
            "limits.eventsPerSecondPerParticipant", default: rateLimits.eventsPerSecondPerParticipant,
            in: 0...1_000_000)
        var log = AppConfiguration.Log()
        log.access = try boolean("log.access", default: log.access)
        let format = try string("log.format", default: log.format.rawValue) { name in
            LogFormat(rawValue: name) == nil ? "expected text or json" : nil
        }
        log.format = LogFormat(rawValue: format) ?? .text
        var store = AppConfiguration.Store()
        let kind = try string("store.kind", default: store.kind.rawValue) { name in
            AppConfiguration.Store.Kind(rawValue: name) == nil ? "expected sqlite, memory or postgres" : nil
        }
        store.kind = AppConfiguration.Store.Kind(rawValue: kind) ?? .sqlite
        store.dataDirectory = try string("store.dataDir", default: store.dataDirectory) {
            $0.isEmpty ? "must name a directory" : nil
        }
        store.sync = try string("store.sync", default: store.sync) {
            ["full", "normal"].contains($0) ? nil : "expected full or normal"
        }
        store.maxMegabytes = try integer("store.maxMegabytes", default: store.maxMegabytes, in: 0...10_000_000)
        if source(of: "store.databaseURL") != nil {
            store.databaseURL = try string("store.databaseURL", default: "") {
                $0.isEmpty ? "expected a URI such as postgres://user@host:5432/database" : nil
            }
        }
        if store.kind == .postgres, store.databaseURL == nil {
            throw .invalidValue(
                key: "store.databaseURL", source: source(of: "store.kind") ?? "store.kind",
                reason: "store.kind is postgres, so store.databaseURL (--database-url) is needed too")
        }
        if source(of: "cluster.nodeId") != nil {
            store.nodeID = try string("cluster.nodeId", default: "") {
                !$0.isEmpty && $0.utf8.count <= 64 && !$0.contains(" ")
                    ? nil : "expected 1 to 64 characters without spaces"
            }
        }
        try clusterSettings(into: &store)
        return AppConfiguration(
            http: http, logLevel: Logger.Level(rawValue: levelName.lowercased()) ?? .info, sessions: sessions,
            simulation: simulation, streams: streams, cors: cors, tls: try tlsSettings(), store: store,
            rateLimits: rateLimits, log: log, contacts: try contactSettings(),
            features: try HostedFeatures(features, settings: self) { key in source(of: key) ?? "default" })
    }

    /// The internal address and the secret: both or neither, the address a `HOST:PORT` and only with PostgreSQL.
    private func clusterSettings(into store: inout AppConfiguration.Store) throws(ConfigurationError) {
        if source(of: "cluster.internalAddress") != nil {
            store.internalAddress = try string("cluster.internalAddress", default: "") { address in
                HostAndPort(address) == nil ? "expected HOST:PORT, such as 10.0.0.7:9090" : nil
            }
        }
        if source(of: "cluster.secret") != nil {
            // The value is never repeated in an error: it is a secret.
            store.clusterSecret = try string("cluster.secret", default: "") { secret in
                secret.utf8.count >= 16 && secret.utf8.allSatisfy({ (33...126).contains($0) })
                    ? nil : "expected at least 16 printable characters without spaces"
            }
        }
        guard let address = store.internalAddress else { return }
        guard store.kind == .postgres else {
            throw .invalidValue(
                key: "cluster.internalAddress",
                source: source(of: "cluster.internalAddress") ?? "cluster.internalAddress",
                reason: "only a node of a cluster (store.kind postgres) forwards requests; got \(address)")
        }
        guard store.clusterSecret != nil else {
            throw .invalidValue(
                key: "cluster.secret", source: source(of: "cluster.internalAddress") ?? "cluster.internalAddress",
                reason:
                    "cluster.internalAddress is set, so the cluster's shared secret is needed too (VIEWHOST_CLUSTER_SECRET)"
            )
        }
    }

    /// Both paths or neither: one alone is a mistake worth stopping for, not a reason to serve plain HTTP.
    private func tlsSettings() throws(ConfigurationError) -> AppConfiguration.TLS {
        var tls = AppConfiguration.TLS()
        for path in ["tls.certificatePath", "tls.keyPath"] where source(of: path) != nil {
            let value = try string(path, default: "") { $0.isEmpty ? "must name a PEM file" : nil }
            if path == "tls.certificatePath" { tls.certificatePath = value } else { tls.keyPath = value }
        }
        if (tls.certificatePath == nil) != (tls.keyPath == nil) {
            let given = tls.certificatePath == nil ? "tls.keyPath" : "tls.certificatePath"
            let missing = tls.certificatePath == nil ? "tls.certificatePath" : "tls.keyPath"
            throw .invalidValue(
                key: missing, source: source(of: given) ?? given,
                reason: "\(given) is set, so \(missing) (--tls-cert/--tls-key) is needed too")
        }
        return tls
    }

    private static func typed(_ text: String, key: ConfigurationKey, source: String) throws(ConfigurationError)
        -> ConfigValue
    {
        let content: ConfigContent? =
            switch key.kind {
            case .integer: Int(text).map { .int($0) }
            case .number: Double(text).map { .double($0) }
            case .boolean: Bool(text).map { .bool($0) }
            case .string: .string(text)
            case .stringList: .stringArray(text.split(separator: ",").map { String($0) })
            }
        guard let content else {
            throw .invalidValue(key: key.path, source: "\(source)", reason: "expected \(key.kind.rawValue)")
        }
        return ConfigValue(content, isSecret: false)
    }
}
