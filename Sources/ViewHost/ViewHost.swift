/// The ViewHost library's app layer is the glue: it maps HTTP routes onto the features' events and snapshots, loads the
/// configuration and turns domain errors into HTTP statuses. It is the only layer that sees both HTTPCore and
/// the features; neither of those imports it.
import Foundation
public import HTTPCore
public import HTTPTLS
public import Logging
import SQLiteStorage
public import ViewModelCore

/// Builds the server the `viewhost` executable and the tests run, from one configuration.
/// - Parameters:
///   - configuration: The merged configuration.
///   - logger: Where errors are logged.
///   - scheduler: Runs the features' timers; the default runs in real time divided by the simulation speed.
///   - security: TLS for every connection (see ``makeTLSContext(_:)``); nil for plain HTTP.
/// - Returns: A server, not yet started.
public func makeServer(
    configuration: AppConfiguration, logger: Logger, scheduler: (any TimerScheduling)? = nil,
    security: (any TransportSecurity)? = nil
) -> HTTPServer {
    makeApp(configuration: configuration, logger: logger, scheduler: scheduler, security: security).server
}

/// ``makeServer(configuration:logger:scheduler:security:)`` with the rate limits on `limitsClock` (tests move it by
/// hand, so a limit's refill never depends on how fast the machine runs).
public func makeServer<C: Clock>(
    configuration: AppConfiguration, logger: Logger, scheduler: (any TimerScheduling)? = nil,
    security: (any TransportSecurity)? = nil, limitsClock: C
) -> HTTPServer where C.Duration == Duration {
    makeApp(
        configuration: configuration, logger: logger, scheduler: scheduler, security: security, storage: nil,
        limitsClock: limitsClock
    ).server
}

/// The server with what outlives a request: its sessions and their durable store.
public struct ViewHostApp: Sendable {
    /// The HTTP server, not yet started.
    public let server: HTTPServer
    /// The listener for requests the cluster's other nodes forward here (`cluster.internalAddress`), not yet
    /// started; nil unless this node forwards.
    public let internalServer: HTTPServer?
    let registry: SessionRegistry

    /// Tells the cluster's other nodes where this node takes their forwarded requests, and keeps its lease alive
    /// (call once ``internalServer`` listens).
    public func announce() {
        guard let internalServer, let address = internalServer.localAddress else { return }
        registry.shared?.announce(address.description)
    }

    /// Loads the stored sessions whose timers are due, so those fire without waiting for a request (call once the
    /// server listens; from then on the registry looks every half second, for sessions that left memory too).
    public func restoreSessionsWithTimers() {
        registry.backgroundWork.run { registry.loadSessionsDue() }
    }

    /// Ends the sessions in memory, writes what the store has queued, and closes it (after the server drained).
    /// Once only: a second call does nothing.
    public func close() {
        registry.close()
    }

    /// A node of a cluster that stops gracefully (a rolling restart) leaves it without failing a request: call once
    /// ``server`` has drained (its clients went to other nodes, which forward their requests here while this node
    /// owns the sessions). From now on each new hop hands its session to the node that forwarded it, which takes it
    /// over at once (`HopDeparture`); once the writing hops already taken have answered (at most `timeout`), this
    /// node ends its sessions and streams, writes what it has queued and ends its lease (``close()``), so the other
    /// nodes take the rest of its sessions at once; then ``internalServer`` drains. Does nothing on a node that
    /// does not forward.
    public func leaveCluster(within timeout: Duration) async {
        guard let hop = registry.cluster, let internalServer else { return }
        hop.departure.leave(within: timeout)
        await hop.departure.writesFinished()
        close()
        internalServer.shutdown()
        await internalServer.waitUntilStopped()
    }
}

/// Builds the app: ``makeServer(configuration:logger:scheduler:security:)`` with a durable store.
/// - Parameters:
///   - configuration: The merged configuration.
///   - logger: Where errors are logged.
///   - scheduler: Runs the features' timers; the default runs in real time.
///   - security: TLS for every connection; nil for plain HTTP.
///   - storage: Where sessions are kept beyond the process (see ``makeStorage(_:features:historyInputs:database:)``); nil keeps them in memory.
/// - Returns: The app, its server not yet started.
public func makeApp(
    configuration: AppConfiguration, logger: Logger, scheduler: (any TimerScheduling)? = nil,
    security: (any TransportSecurity)? = nil, storage: (any SessionStorage)? = nil
) -> ViewHostApp {
    makeApp(
        configuration: configuration, logger: logger, scheduler: scheduler, security: security, storage: storage,
        limitsClock: ContinuousClock())
}

/// ``makeApp(configuration:logger:scheduler:security:storage:)`` with the rate limits' clock injected.
public func makeApp<C: Clock>(
    configuration: AppConfiguration, logger: Logger, scheduler: (any TimerScheduling)?,
    security: (any TransportSecurity)?, storage: (any SessionStorage)?, limitsClock: C
) -> ViewHostApp where C.Duration == Duration {
    let registry = SessionRegistry(
        settings: SessionRegistry.Settings(
            store: SessionStore.Configuration(
                idleTTL: configuration.sessions.idleTTL, maxSessions: configuration.sessions.max),
            seed: configuration.simulation.seed, logCapacity: configuration.sessions.logCapacity,
            simulationSpeed: configuration.simulation.speed, historyInputs: configuration.sessions.historyVersions,
            maxStoreBytes: configuration.store.maxMegabytes > 0 ? configuration.store.maxMegabytes << 20 : nil,
            contacts: configuration.contacts),
        scheduler: scheduler ?? LiveTimerScheduler(), features: configuration.features, logger: logger,
        storage: storage, cluster: clusterHop(configuration.store, storage: storage))
    storage?.onHealthChange { health in log(health, to: logger) }
    let archive = SessionArchive(storage: storage, logger: logger)
    let metrics = AppMetrics()
    let streams = StreamLimiter(
        maxPerSession: configuration.streams.maxPerSession, maxTotal: configuration.streams.max,
        maxPerParticipant: configuration.streams.maxPerParticipant)
    let serverReference = MetricsRoutes.ServerReference()
    let limits = RequestRateLimits(configuration.rateLimits, clock: limitsClock)
    let accessLog = AccessLog(logger: logger, isEnabled: configuration.log.access)
    var router = MeteredRouter(metrics: metrics, accessLog: accessLog)
    HealthRoutes.register(on: &router, registry: registry)
    WebRoutes.register(on: &router, features: configuration.features)
    MetricsRoutes.register(on: &router, metrics: metrics, registry: registry, streams: streams, server: serverReference)
    SessionRoutes.register(on: &router, registry: registry, limits: limits)
    EventRoutes.register(on: &router, registry: registry, metrics: metrics, limits: limits)
    // Literal routes before the `/v1/sessions/:id/:feature` pattern, which would match them too.
    StreamRoutes.register(on: &router, registry: registry, limiter: streams, heartbeat: configuration.streams.heartbeat)
    LogRoutes.register(on: &router, registry: registry)
    // An app none of whose features takes contacts has no contacts to offer (nor the routes); one none of whose
    // features can be shared has no participants; one with neither has no invitations.
    let takesContacts = configuration.features.definitions.contains(where: \.takesContacts)
    let shares = configuration.features.definitions.contains(where: \.isShareable)
    if takesContacts || shares {
        InvitationRoutes.register(
            on: &router, registry: registry, limits: limits, contacts: takesContacts, joins: shares)
    }
    if takesContacts { ContactRoutes.register(on: &router, registry: registry, limits: limits) }
    if shares { ParticipantRoutes.register(on: &router, registry: registry, limits: limits) }
    DeliveryRoutes.register(on: &router, registry: registry)
    if shares { ParticipationRoutes.register(on: &router, registry: registry) }
    HistoryRoutes.register(on: &router, registry: registry, archive: archive)
    SnapshotRoutes.register(on: &router, registry: registry, archive: archive)
    let cors = CORSResponder(wrapped: router, allowedOrigins: Set(configuration.cors.allowedOrigins))
    // Hops are the internal listener's alone: here a request that carries one is refused, whatever it carries.
    let responder: any HTTPResponder =
        registry.cluster.map { PublicGate(wrapped: cors, hop: $0, refusals: accessLog.refusals) } ?? cors
    let server = HTTPServer(
        configuration: configuration.http, responder: responder, logger: logger, security: security)
    serverReference.set(server)
    return ViewHostApp(
        server: server,
        internalServer: registry.cluster.map { hop in
            HTTPServer(
                configuration: internalConfiguration(configuration),
                // The router itself: CORS is the forwarding node's to answer, once.
                responder: HopGate(wrapped: router, hop: hop),
                logger: logger, security: nil)
        }, registry: registry)
}

/// The hop to other nodes, when this node forwards: a shared store, an internal address and the secret.
private func clusterHop(_ store: AppConfiguration.Store, storage: (any SessionStorage)?) -> ClusterHop? {
    guard store.internalAddress != nil, let secret = store.clusterSecret, storage is any SharedSessionStorage else {
        return nil
    }
    return ClusterHop(node: store.nodeName, secret: secret)
}

/// The internal listener's settings: the public one's, on the internal address, taking the client's address
/// from every hop (each carries the secret, so what it says of the client is the forwarding node's word).
private func internalConfiguration(_ configuration: AppConfiguration) -> HTTPServerConfiguration {
    var http = configuration.http
    // Checked when the configuration was read.
    let address =
        configuration.store.internalAddress.flatMap(HostAndPort.init) ?? HostAndPort(host: "127.0.0.1", port: 0)
    http.host = address.host
    http.port = address.port
    http.trustedProxies = TrustedProxies([IPAddressRange("0.0.0.0/0"), IPAddressRange("::/0")].compactMap { $0 })
    return http
}

/// One line for each change of the store's health: what is wrong, naming the file, or that it is well again.
private func log(_ health: StorageHealth, to logger: Logger) {
    switch health {
    case .healthy:
        logger.notice("the session store takes writes again")
    case .failing(let reason):
        logger.error(
            "the session store takes no writes; events get 503 until a write succeeds (retried every few seconds)",
            metadata: ["reason": "\(reason)"])
    case .broken(let reason):
        logger.critical(
            "the session store cannot be used safely; writes are refused until it is repaired and the server restarted",
            metadata: ["reason": "\(reason)"])
    }
}

/// The durable store `store` names, reading stored sessions with `features`' types: SQLite in its data directory
/// (made when missing), PostgreSQL at its URL through `database` (its schema brought up to date), or nil for the
/// memory store.
/// - Throws: `StorageError`: `cannotCreate` (exit 73) when the directory cannot be made or written, `unusable`
///   (exit 65) when the file is corrupt, not a ViewHost store, or written by a newer version; `unreachable`
///   (exit 69) when the database cannot be reached; `failed` when PostgreSQL is asked for and `database` is nil.
/// `historyInputs` is how many of each session's latest inputs the store keeps for its past versions
/// (`sessions.historyVersions`); `database` opens PostgreSQL (`.postgres`, from the ViewHostPostgres product).
public func makeStorage(
    _ store: AppConfiguration.Store, features: FeatureTypes, historyInputs: Int = 0, database: DatabaseStorage? = nil
) throws(StorageError) -> (any SessionStorage)? {
    switch store.kind {
    case .memory:
        return nil
    case .sqlite:
        return try SQLiteSessionStorage(
            directory: store.dataDirectory, sync: SQLiteSessionStorage.Sync(rawValue: store.sync) ?? .full,
            features: features, historyInputs: historyInputs)
    case .postgres:
        guard let database else {
            throw .failed(reason: "this app is built without PostgreSQL support (the ViewHostPostgres product)")
        }
        return try database.open(
            url: store.databaseURL ?? "", node: store.nodeName, features: features, historyInputs: historyInputs)
    }
}

/// The TLS context for `tls`, or nil when HTTPS is off.
/// - Throws: `TLSError` naming the certificate or key file that cannot be used.
public func makeTLSContext(_ tls: AppConfiguration.TLS) throws(TLSError) -> TLSContext? {
    guard let certificatePath = tls.certificatePath, let keyPath = tls.keyPath else { return nil }
    return try TLSContext(configuration: TLSConfiguration(certificatePath: certificatePath, keyPath: keyPath))
}
