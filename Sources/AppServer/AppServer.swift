/// AppServer is the glue layer: it maps HTTP routes onto the features' events and snapshots, loads the
/// configuration and turns domain errors into HTTP statuses. It is the only layer that sees both HTTPCore and
/// the features; neither of those imports it.
public import HTTPCore
public import HTTPTLS
public import Logging
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
    let registry = SessionRegistry(
        settings: SessionRegistry.Settings(
            store: SessionStore.Configuration(
                idleTTL: configuration.sessions.idleTTL, maxSessions: configuration.sessions.max),
            seed: configuration.simulation.seed, logCapacity: configuration.sessions.logCapacity,
            simulationSpeed: configuration.simulation.speed),
        scheduler: scheduler ?? LiveTimerScheduler(),
        catalog: FeatureCatalog.all(configuration: configuration))
    let metrics = AppMetrics()
    let streams = StreamLimiter(maxPerSession: configuration.streams.maxPerSession, maxTotal: configuration.streams.max)
    let serverReference = MetricsRoutes.ServerReference()
    var router = MeteredRouter(metrics: metrics)
    HealthRoutes.register(on: &router)
    WebRoutes.register(on: &router)
    MetricsRoutes.register(on: &router, metrics: metrics, registry: registry, streams: streams, server: serverReference)
    SessionRoutes.register(on: &router, registry: registry)
    EventRoutes.register(on: &router, registry: registry, metrics: metrics)
    // Literal routes before the `/v1/sessions/:id/:feature` pattern, which would match them too.
    StreamRoutes.register(on: &router, registry: registry, limiter: streams, heartbeat: configuration.streams.heartbeat)
    LogRoutes.register(on: &router, registry: registry)
    SnapshotRoutes.register(on: &router, registry: registry)
    let responder = CORSResponder(wrapped: router, allowedOrigins: Set(configuration.cors.allowedOrigins))
    let server = HTTPServer(
        configuration: configuration.http, responder: responder, logger: logger, security: security)
    serverReference.set(server)
    return server
}

/// The TLS context for `tls`, or nil when HTTPS is off.
/// - Throws: ``TLSError`` naming the certificate or key file that cannot be used.
public func makeTLSContext(_ tls: AppConfiguration.TLS) throws(TLSError) -> TLSContext? {
    guard let certificatePath = tls.certificatePath, let keyPath = tls.keyPath else { return nil }
    return try TLSContext(configuration: TLSConfiguration(certificatePath: certificatePath, keyPath: keyPath))
}
