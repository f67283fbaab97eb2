import ChatAPI
import ChatFeature
import Foundation
import HTTPCore
import LoginAPI
import LoginFeature
import Logging
import PersonAPI
import PersonFeature
import PostgresStorage
import Testing
import TestSupport
import ViewHost
import ViewHostAPI
import ViewModelCore
import WeatherAPI
import WeatherFeature

/// The whole app (`makeServer`) on 127.0.0.1 port 0, with a ``ManualScheduler`` injected: chat timers and the
/// sessions' idle clock move only when a test calls ``advance(by:)``. Tests talk to it over real loopback sockets.
///
/// ```swift
/// try await TestApp.run { app in
///     let session = try await app.createSession()
///     let chat = try await app.snapshot(session)
/// }
/// ```
final class TestApp: Sendable {
    let server: HTTPServer
    /// The app with its durable store, when the test gave it one (``init(_:logger:scheduler:storeDirectory:)``).
    let app: ViewHostApp?
    let port: Int
    let scheduler: ManualScheduler
    /// The rate limits' time: it moves only with ``advance(by:)``.
    let limitsClock = ManualClock()
    /// How long a request may take before the test fails. With a store, an answer waits for its commit, which resumes
    /// on Swift's cooperative pool (two threads here), and tests that keep those threads busy run alongside: the
    /// bound is generous, to fail instead of hanging, not to measure.
    let requestTimeout: Duration
    let configuration: AppConfiguration

    /// Starts an app, configured by `configure`, runs `body` with it, and stops it (also when `body` throws).
    /// `logger` receives the app's log (the access log included); by default nothing is logged.
    static func run<Result>(
        _ configure: (inout AppConfiguration) -> Void = { _ in }, logger: Logger? = nil,
        scheduler: ManualScheduler = ManualScheduler(), storeDirectory: String? = nil, storeHistory: Int = 0,
        node: ClusterNode? = nil, _ body: (TestApp) async throws -> Result
    ) async throws -> Result {
        let app = try TestApp(
            configure, logger: logger, scheduler: scheduler, storeDirectory: storeDirectory, storeHistory: storeHistory,
            node: node)
        do {
            let result = try await body(app)
            await app.stop()
            return result
        } catch {
            await app.stop()
            throw error
        }
    }

    /// - Parameters:
    ///   - scheduler: The app's clock; a test that restarts the app passes the same one to the next.
    ///   - storeDirectory: Keeps sessions in an SQLite store there (as `viewhost serve` does); nil keeps them in
    ///     memory.
    ///   - storeHistory: The inputs of history the SQLite store keeps (`sessions.historyVersions` of a server; 0:
    ///     none beyond the latest checkpoint).
    ///   - node: Makes the app a node of a cluster on PostgreSQL instead (its internal listener started and
    ///     announced), beside the other apps given the same database.
    init(
        _ configure: (inout AppConfiguration) -> Void = { _ in }, logger custom: Logger? = nil,
        scheduler: ManualScheduler = ManualScheduler(), storeDirectory: String? = nil, storeHistory: Int = 0,
        node: ClusterNode? = nil
    ) throws {
        var configuration = AppConfiguration()
        configuration.http = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, eventLoopCount: 2,
            // Generous read, idle and write timeouts: a test's next step can wait long for a thread on a busy
            // machine (the suites that test the timeouts set their own).
            timeouts: HTTPTimeouts(
                headerRead: TestDeadline.scaled(.seconds(120)), bodyRead: TestDeadline.scaled(.seconds(120)),
                idle: TestDeadline.scaled(.seconds(120)), write: TestDeadline.scaled(.seconds(120)), drain: .seconds(2),
                lingeringClose: .milliseconds(100)))
        configuration.logLevel = .critical
        // No rate limits unless a test sets them (RateLimitHTTPTests): tests post hundreds of events to one
        // session, and the limits' clock moves only with advance(by:).
        configuration.rateLimits.eventsPerSecondPerSession = 0
        configuration.rateLimits.sessionsPerMinutePerClient = 0
        // Heartbeats only where a test asks for them (StreamHTTPTests sets a short one): a test that expects the
        // next frame to be a change must not meet the 15 s comment, which it did under ThreadSanitizer's slowdown.
        configuration.streams.heartbeat = .seconds(3600)
        configuration.features = try HostedFeatures(Self.seedFeatures, settings: FixedFeatureSettings())
        configure(&configuration)
        var logger = Logger(label: "app-e2e")
        logger.logLevel = .critical
        if let custom { logger = custom }
        self.scheduler = scheduler
        self.configuration = configuration
        // A bound to fail instead of hanging, not a measure: on a busy machine a request may wait long for a thread.
        requestTimeout = .seconds(60)
        if let node {
            configuration.store.kind = .postgres
            configuration.store.databaseURL = node.databaseURL
            configuration.store.nodeID = node.name
            configuration.store.internalAddress = "127.0.0.1:0"
            configuration.store.clusterSecret = "test-cluster-secret"
            let app = makeApp(
                configuration: configuration, logger: logger, scheduler: scheduler, security: nil,
                storage: try makeStorage(
                    configuration.store, features: configuration.features.types, historyInputs: storeHistory,
                    database: .postgres),
                limitsClock: limitsClock)
            self.app = app
            server = app.server
            try app.internalServer?.start()
            app.announce()
        } else if let storeDirectory {
            configuration.store.kind = .sqlite
            configuration.store.dataDirectory = storeDirectory
            let app = makeApp(
                configuration: configuration, logger: logger, scheduler: scheduler, security: nil,
                storage: try makeStorage(
                    configuration.store, features: configuration.features.types, historyInputs: storeHistory,
                    database: .postgres),
                limitsClock: limitsClock)
            self.app = app
            server = app.server
        } else {
            app = nil
            server = makeServer(configuration: configuration, logger: logger, scheduler: scheduler, limitsClock: limitsClock)
        }
        try server.start()
        port = server.localAddress!.port
    }

    /// The features the `viewhost` executable serves, in its order.
    static let seedFeatures: [FeatureRegistration] = [.chat, .weather, .login, .person]

    /// Stops the server, then (with a store) ends the sessions and closes the store, as `viewhost serve` does
    /// after a drain.
    func stop() async {
        server.shutdown()
        await server.waitUntilStopped()
        if let internalServer = app?.internalServer {
            internalServer.shutdown()
            await internalServer.waitUntilStopped()
        }
        app?.close()
    }

    /// Moves the app's time forward, running the timers that fall due (and refilling the rate limits).
    func advance(by duration: Duration) {
        limitsClock.advance(by: duration)
        scheduler.advance(by: duration)
    }

    // MARK: - Requests

    /// The bytes of one request. A body gets `Content-Length` and, unless `contentType` is nil, a `Content-Type`.
    static func requestBytes(
        _ method: String, _ path: String, token: String? = nil, headers: [(String, String)] = [],
        body: String? = nil, contentType: String? = "application/json", close: Bool = true
    ) -> [UInt8] {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if close { text += "Connection: close\r\n" }
        if let token { text += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body {
            if let contentType { text += "Content-Type: \(contentType)\r\n" }
            text += "Content-Length: \(body.utf8.count)\r\n"
        }
        text += "\r\n" + (body ?? "")
        return Array(text.utf8)
    }

    /// Sends one request on a connection of its own and reads the answer.
    func request(
        _ method: String = "GET", _ path: String, token: String? = nil, headers: [(String, String)] = [],
        body: String? = nil, contentType: String? = "application/json", timeout: Duration? = nil
    ) async throws -> TestResponse {
        let client = try HTTPTestClient(port: port)
        try client.send(
            Self.requestBytes(method, path, token: token, headers: headers, body: body, contentType: contentType))
        return try await client.readResponse(timeout: timeout ?? requestTimeout, headRequest: method == "HEAD")
    }

    /// A connection with `request` sent and its answer not read yet (long polls, held requests).
    func send(
        _ method: String = "GET", _ path: String, token: String? = nil, headers: [(String, String)] = []
    ) throws -> HTTPTestClient {
        let client = try HTTPTestClient(port: port)
        try client.send(Self.requestBytes(method, path, token: token, headers: headers))
        return client
    }

    // MARK: - Sessions, snapshots, events

    /// `POST /v1/sessions`, expecting `201`.
    func createSession(body: String? = nil) async throws -> TestSession {
        let response = try await request("POST", "/v1/sessions", body: body)
        try #require(response.status == 201, "\(response)")
        let json = try response.json
        return TestSession(id: try #require(json["id"].string), token: try #require(json["token"].string))
    }

    /// Every feature API.md documents, in the order `links` and `GET /v1/sessions/{id}` sort them.
    static let allFeatures = ["chat", "login", "person", "weather"]

    /// A session without weather. Weather loads through an effect that finishes on its own time, so tests that
    /// count log entries or stream frames, or wait for silence, leave it out.
    func createQuietSession() async throws -> TestSession {
        try await createSession(body: #"{"features":["chat","login","person"]}"#)
    }

    /// `GET` a feature's snapshot, expecting `200`.
    func snapshot(_ session: TestSession, _ feature: String = "chat") async throws -> JSON {
        let response = try await request("GET", session.path(feature), token: session.token)
        try #require(response.status == 200, "\(response)")
        return try response.json
    }

    /// `POST` events (a JSON text: one object or an array) to a feature.
    func post(
        _ session: TestSession, _ feature: String = "chat", _ body: String, headers: [(String, String)] = []
    ) async throws -> TestResponse {
        try await request("POST", session.path("\(feature)/events"), token: session.token, headers: headers, body: body)
    }

    /// `POST` events expecting `202`; returns the answer's `version`.
    @discardableResult
    func send(_ session: TestSession, _ feature: String = "chat", _ body: String) async throws -> Int {
        let response = try await post(session, feature, body)
        try #require(response.status == 202, "\(response)")
        return try #require(try response.json["version"].int)
    }

    /// The session's data-flow log, expecting `200`.
    func log(_ session: TestSession, since: Int? = nil) async throws -> [JSON] {
        let query = since.map { "?since=\($0)" } ?? ""
        let response = try await request("GET", session.path("log") + query, token: session.token)
        try #require(response.status == 200, "\(response)")
        return try response.json.array
    }
}

/// A node of a cluster in a test: its name, and the PostgreSQL database every node of the cluster shares.
struct ClusterNode: Sendable {
    let name: String
    let databaseURL: String
}

/// A session as its creator knows it.
struct TestSession: Sendable {
    let id: String
    let token: String

    /// `/v1/sessions/ID` or `/v1/sessions/ID/suffix`.
    func path(_ suffix: String = "") -> String {
        suffix.isEmpty ? "/v1/sessions/\(id)" : "/v1/sessions/\(id)/\(suffix)"
    }
}

/// A JSON document parsed by Foundation (fine in tests), navigated by key and index; a missing member is a
/// JSON whose `value` is nil, so chains like `json["chatList"]["chats"][0]["contact"].string` never trap.
struct JSON: @unchecked Sendable, CustomStringConvertible {
    let value: Any?

    init(_ value: Any?) {
        self.value = value
    }

    init(bytes: [UInt8]) throws {
        value = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    subscript(key: String) -> JSON { JSON((value as? [String: Any])?[key]) }

    subscript(index: Int) -> JSON {
        guard let items = value as? [Any], items.indices.contains(index) else { return JSON(nil) }
        return JSON(items[index])
    }

    var string: String? { value as? String }
    var int: Int? { value is String ? nil : value as? Int }
    var bool: Bool? { value is String ? nil : value as? Bool }
    var array: [JSON] { (value as? [Any])?.map(JSON.init) ?? [] }
    var keys: [String] { (value as? [String: Any]).map { $0.keys.sorted() } ?? [] }
    var isNull: Bool { value is NSNull }
    var exists: Bool { value != nil }
    /// The strings of an array of strings.
    var strings: [String] { array.compactMap(\.string) }

    var description: String {
        guard let value, JSONSerialization.isValidJSONObject(value),
            let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
        else { return String(describing: value) }
        return String(decoding: data, as: UTF8.self)
    }
}

extension TestResponse {
    /// The body parsed as JSON.
    var json: JSON {
        get throws { try JSON(bytes: body) }
    }

    /// The problem document's `errors[].field` values.
    var problemFields: [String] {
        ((try? json["errors"].array) ?? []).compactMap { $0["field"].string }
    }
}

extension JSON {
    /// In a chat snapshot: the open chat screen's messages of `contact`.
    func messages(of contact: String) -> [JSON] {
        self["conversations"][contact]["messages"].array
    }

    /// In a chat snapshot: the screens on the navigation stack, as `chatList`, `createChat`, `chat:John`.
    var screens: [String] {
        self["navigation"].array.map { screen in
            screen["contact"].string.map { "chat:\($0)" } ?? (screen["screen"].string ?? "?")
        }
    }
}

extension ConfigurationKey {
    /// Every key the `viewhost` executable reads: the server's own and the seed features' settings.
    static let all = ConfigurationKey.server + TestApp.seedFeatures.flatMap(\.settings)

    /// The key of the `viewhost` executable at `path`, if there is one.
    static func anyNamed(_ path: String) -> ConfigurationKey? {
        all.first { $0.path == path }
    }
}

extension AppConfiguration {
    /// The configuration as the `viewhost` executable loads it: the server's keys and the seed features'.
    static func seedLoad(from sources: Sources) async throws(ConfigurationError) -> AppConfiguration {
        try await load(from: sources, features: TestApp.seedFeatures)
    }
}
