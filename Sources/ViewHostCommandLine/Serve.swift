import ArgumentParser
import Foundation
import HTTPCore
import HTTPTLS
import Logging
import ServiceLifecycle
import UnixSignals
import ViewHost
import ViewModelCore

/// `viewhost serve`: load configuration, start listening, print the readiness line (`viewhost listening on …`, the
/// app's name first), serve the app's features until SIGTERM/SIGINT. Besides its own options it takes each feature
/// setting's flag (`--weather-provider offline`).
struct Serve: AsyncParsableCommand, FeatureHostingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve HTTP (the default). Precedence: flag > VIEWHOST_* environment > config file > default.")

    @Option(help: "Address to listen on (config key host).")
    var host: String?

    @Option(help: "TCP port, 0 for any free one (config key port).")
    var port: Int?

    @Option(help: "JSON configuration file (default Config/viewhost.json; keys in Config/README.md).")
    var config: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical (config key logLevel).")
    var logLevel: String?

    @Option(help: "text or json: one JSON object per line, for log collectors (config key log.format).")
    var logFormat: String?

    @Option(name: .customLong("tls-cert"), help: "PEM certificate (chain) for HTTPS (config key tls.certificatePath).")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "PEM private key for HTTPS (config key tls.keyPath).")
    var tlsKey: String?

    @Option(help: "Divide every simulated chat delay by this (config key simulation.speed), e.g. 100.")
    var simulationSpeed: Double?

    @Option(help: "sqlite (durable, the default), memory, or postgres (several nodes) (config key store.kind).")
    var store: String?

    @Option(help: "Directory of the SQLite store, made when missing (config key store.dataDir; default data).")
    var dataDir: String?

    @Option(
        help: "full (acknowledged events survive power loss, the default) or normal (a process crash) (store.sync).")
    var sync: String?

    @Option(help: "PostgreSQL URI for --store postgres, postgres://user:password@host:port/db (store.databaseURL).")
    var databaseURL: String?

    @Option(
        name: .customLong("node-id"), help: "This node's name in leases and logs (cluster.nodeId; default host-pid).")
    var nodeID: String?

    @Option(
        name: .customLong("internal-address"),
        help:
            "HOST:PORT for requests other nodes forward here (cluster.internalAddress; needs VIEWHOST_CLUSTER_SECRET).")
    var internalAddress: String?

    @Flag(
        name: .customLong("take-over"),
        help:
            "Take over from the server running on --data-dir (same --port): it hands over its listening sockets, drains and exits; nothing is refused. Starts as usual when none runs."
    )
    var takeOver = false

    @Option(
        name: .customLong("take-over-timeout"),
        help: "Seconds the running server may take to hand over its sockets and release --data-dir (default 60).")
    var takeOverTimeout: Double?

    /// The features' own flags (`--weather-provider offline`), read against the app's registrations.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var featureOptions: [String] = []

    /// Without the app's features (argument-parser's entry): serves none.
    func run() async throws {
        try await run(features: [])
    }

    func run(features: [FeatureRegistration]) async throws {
        var flags: [String: String] = [:]
        flags["host"] = host
        flags["port"] = port.map(String.init)
        flags["logLevel"] = logLevel
        flags["log.format"] = logFormat
        flags["simulation.speed"] = simulationSpeed.map { String($0) }
        flags["tls.certificatePath"] = tlsCertificate
        flags["tls.keyPath"] = tlsKey
        flags["store.kind"] = store
        flags["store.dataDir"] = dataDir
        flags["store.sync"] = sync
        flags["store.databaseURL"] = databaseURL
        flags["cluster.nodeId"] = nodeID
        flags["cluster.internalAddress"] = internalAddress
        do {
            for (path, value) in try Self.featureFlags(featureOptions, features: features) { flags[path] = value }
        } catch {
            Self.fail("\(CommandFeatures.name): \(error.message)", code: 64)
        }
        let sources = AppConfiguration.Sources(
            flags: flags, environment: ProcessInfo.processInfo.environment,
            filePath: config ?? "Config/viewhost.json", fileIsRequired: config != nil)
        let configuration: AppConfiguration
        do {
            configuration = try await AppConfiguration.load(from: sources, features: features)
        } catch {
            Self.fail("\(CommandFeatures.name): \(error)", code: error.exitCode)
        }
        if configuration.store.kind == .postgres, CommandFeatures.database == nil {
            // Said before anything opens: an app that passes no database store links no libpq (EX_CONFIG).
            Self.fail(
                "\(CommandFeatures.name): --store postgres: this app is built without PostgreSQL support (add the "
                    + "ViewHostPostgres product and pass database: .postgres to ViewHostCommand.run)", code: 78)
        }
        let level = configuration.logLevel
        let format = configuration.log.format
        // The app's name labels its log and starts its readiness line (read here: the writer's thread has no task).
        let name = CommandFeatures.name
        // Every line goes through one writer thread: an event loop that logs (an access line, a refusal) formats
        // the line and goes on; it never waits for stderr's pipe or file.
        let writer = LogWriter(fd: STDERR_FILENO) { dropped in
            LineLogHandler.line(
                format: format, time: Date(), level: .warning, label: name,
                message: "log lines dropped: the output is slower than the log", metadata: ["dropped": "\(dropped)"])
        }
        LoggingSystem.bootstrap { label in
            var handler = LineLogHandler(label: label, format: format, writer: writer)
            handler.logLevel = level
            return handler
        }
        defer { writer.flush() }
        let logger = Logger(label: name)
        // Trap the signals before the readiness line: a SIGTERM sent the moment the line appears must drain the
        // server, not kill it with the default action.
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let reloads = await UnixSignalsSequence(trapping: .sighup)
        // Sockets systemd bound for this process (a socket unit) replace --host/--port; the variables are read
        // and removed before anything could spawn a child that would take them as its own.
        let activated: [ListeningSocket]
        do {
            activated = try SocketActivation.takeFromEnvironment()
        } catch {
            Self.fail("\(CommandFeatures.name): \(error)", code: 78, after: writer)
        }
        let takeOverSeconds = takeOverTimeout ?? 60
        guard takeOverSeconds > 0, takeOverSeconds <= 86_400 else {
            Self.fail(
                "\(CommandFeatures.name): --take-over-timeout must be more than 0 and at most 86400", code: 64,
                after: writer)
        }
        let handover =
            takeOver
            ? Self.takeOver(
                configuration, activated: activated, timeout: .seconds(takeOverSeconds), logger: logger, writer: writer)
            : nil
        let tls: TLSContext?
        do {
            tls = try makeTLSContext(configuration.tls)
        } catch {
            Self.fail("\(CommandFeatures.name): \(error)", code: error.exitCode, after: writer)
        }
        // Released only now that nothing this process checks alone can fail: from here, a failure exits and the
        // running server, told so by the closed connection, serves again.
        if let handover { Self.release(handover, timeout: .seconds(takeOverSeconds), logger: logger, writer: writer) }
        let storage: (any SessionStorage)?
        do {
            storage = try await Self.openStore(
                configuration, waitingUntil: handover.map { _ in .now + .seconds(takeOverSeconds) })
        } catch {
            if handover != nil, case .inUse = error {
                Self.fail(
                    "\(CommandFeatures.name): cannot take over: the running server did not release the data directory "
                        + "within \(takeOverSeconds) s; it serves again", code: 75, after: writer)
            }
            if handover != nil {
                Self.fail(
                    "\(CommandFeatures.name): cannot take over: \(error); the running server serves again",
                    code: error.exitCode, after: writer)
            }
            Self.fail("\(CommandFeatures.name): \(error)", code: error.exitCode, after: writer)
        }
        let listening: Listening
        if let handover {
            listening = .handedOver(handover)
        } else {
            listening = activated.isEmpty ? .bound : .activated(activated)
        }
        let serving = Serving(configuration: configuration, logger: logger, writer: writer, tls: tls)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await serving.run(listening, storage: storage) }
            tasks.addTask {
                for await signal in signals {
                    logger.notice("draining", metadata: ["signal": "\(signal)"])
                    await serving.stop()
                }
            }
            tasks.addTask {
                for await _ in reloads { Self.reload(tls, logger: logger) }
            }
            try await tasks.next()  // the serving ends once the server has drained (and no take-over failed)
            tasks.cancelAll()
        }
    }

    /// SIGHUP: read the certificate and key again; a pair that does not work leaves the running one in place.
    private static func reload(_ tls: TLSContext?, logger: Logger) {
        guard let tls else {
            logger.notice("SIGHUP: nothing to reload (TLS is off)")
            return
        }
        do {
            try tls.reload()
            logger.notice("reloaded the TLS certificate", metadata: ["certificate": "\(tls.certificateSummary)"])
        } catch {
            logger.error(
                "TLS reload failed; still serving the previous certificate",
                metadata: ["error": "\(error)", "certificate": "\(tls.certificateSummary)"])
        }
    }

    /// Writes `message` to stderr and exits with `code`; with `writer`, after the log lines it still holds.
    static func fail(_ message: String, code: Int32, after writer: LogWriter? = nil) -> Never {
        writer?.flush()
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(code)
    }

    /// The feature settings set by flag, by key path: `--weather-provider open-meteo` or `--weather-provider=open-meteo`.
    /// - Throws: ``ValidationError`` for an option no feature declares, or one without its value.
    static func featureFlags(_ options: [String], features: [FeatureRegistration]) throws(ValidationError)
        -> [String: String]
    {
        let keys = Dictionary(
            features.flatMap(\.settings).compactMap { key in key.flag.map { ("--" + $0, key.path) } },
            uniquingKeysWith: { first, _ in first })
        var flags: [String: String] = [:]
        var index = options.startIndex
        while index < options.endIndex {
            let option = options[index]
            let (name, inline) =
                option.firstIndex(of: "=").map { (String(option[..<$0]), String(option[option.index(after: $0)...])) }
                ?? (option, nil)
            guard let path = keys[name] else {
                throw ValidationError(
                    option.hasPrefix("-") ? "Unknown option '\(name)'." : "Unexpected argument '\(option)'.")
            }
            if let inline {
                flags[path] = inline
            } else {
                index += 1
                guard index < options.endIndex else { throw ValidationError("Missing value for '\(name)'.") }
                flags[path] = options[index]
            }
            index += 1
        }
        return flags
    }

    /// The features' flags, as a section of `serve --help`.
    static func featureOptionsHelp(_ features: [FeatureRegistration]) -> String {
        let lines = features.flatMap(\.settings).compactMap { key -> String? in
            guard let flag = key.flag else { return nil }
            let option = "--\(flag) <\(flag)>"
            let padded =
                option.count < 24
                ? option.padding(toLength: 24, withPad: " ", startingAt: 0)
                : option + "\n" + String(repeating: " ", count: 26)
            return "  \(padded)\(key.summary) (config key \(key.path))"
        }
        return lines.isEmpty ? "" : "\nFEATURE OPTIONS:\n" + lines.joined(separator: "\n") + "\n"
    }
}
