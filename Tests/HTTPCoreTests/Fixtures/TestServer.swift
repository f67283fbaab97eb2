import HTTPCore
import Logging
import TestSupport
import ViewHostLocking

/// An in-process server on 127.0.0.1 port 0 with the given routes and short timeouts, stopped at the end of
/// the test that made it.
final class TestServer {
    let server: HTTPServer
    let port: Int
    /// How many `/slow/:ms` handlers have started: a test that must act while one is in flight waits on this.
    let slowHandlersStarted: Locked<Int>

    init(
        eventLoops: Int = 2, limits: HTTPLimits = HTTPLimits(),
        // Generous read, idle and write timeouts: a test's next step can wait long for a thread on a busy machine
        // (the tests of the timeouts set their own).
        timeouts: HTTPTimeouts = HTTPTimeouts(
            headerRead: TestDeadline.scaled(.seconds(120)), bodyRead: TestDeadline.scaled(.seconds(120)),
            idle: TestDeadline.scaled(.seconds(120)), write: TestDeadline.scaled(.seconds(120)),
            lingeringClose: .milliseconds(100)),
        maxConnections: Int = 10_000, compression: HTTPCompressionSettings = HTTPCompressionSettings(),
        routes: ((inout Router) -> Void)? = nil
    ) throws {
        let slowHandlersStarted = Locked(0)
        self.slowHandlersStarted = slowHandlersStarted
        var router = Router()
        if let routes { routes(&router) } else { Self.standardRoutes(&router, slowHandlersStarted: slowHandlersStarted) }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let configuration = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, eventLoopCount: eventLoops, maxConnections: maxConnections, limits: limits,
            timeouts: timeouts, compression: compression)
        server = HTTPServer(configuration: configuration, responder: router, logger: logger)
        try server.start()
        port = server.localAddress!.port
    }

    func client() throws -> HTTPTestClient {
        try HTTPTestClient(port: port)
    }

    func stop() async {
        server.shutdown()
        await server.waitUntilStopped()
    }

    /// Waits (polling, bounded) until the server has `count` open connections.
    func waitForOpenConnections(_ count: Int, timeout: Duration = .seconds(60)) async -> Bool {
        await eventually(timeout: timeout) { server.openConnectionCount == count }
    }

    /// Waits (polling, bounded) until `count` `/slow/:ms` handlers have started.
    func waitForSlowHandlers(_ count: Int, timeout: Duration = .seconds(60)) async -> Bool {
        await eventually(timeout: timeout) { slowHandlersStarted.withLock { $0 } >= count }
    }

    /// Waits (polling, bounded) until `count` accepted connections have been closed by either side.
    func waitForClosedConnections(_ count: Int, timeout: Duration = .seconds(60)) async -> Bool {
        await eventually(timeout: timeout) { server.closedConnectionCount >= count }
    }

    static func standardRoutes(_ router: inout Router, slowHandlersStarted: Locked<Int> = Locked(0)) {
        router.get("/hello") { _, _ in
            HTTPResponse(contentType: "text/plain", bytes: Array("hello".utf8))
        }
        router.post("/echo") { request, _ in
            var headers = HTTPHeaders()
            if let trailer = request.trailers[HTTPHeaderName("X-Trailer")] { headers.add("X-Got-Trailer", trailer) }
            return HTTPResponse(contentType: "application/octet-stream", bytes: request.body, headers: headers)
        }
        router.get("/items/:id") { _, context in
            HTTPResponse(contentType: "text/plain", bytes: Array("item \(context.parameters["id"] ?? "")".utf8))
        }
        router.on(.get, "/slow/:ms") { _, context in
            let milliseconds = Int(context.parameters["ms"] ?? "") ?? 0
            slowHandlersStarted.withLock { $0 += 1 }
            return .deferred {
                try await Task.sleep(for: .milliseconds(milliseconds))
                return HTTPResponse(contentType: "text/plain", bytes: Array("slow \(milliseconds)".utf8))
            }
        }
        router.get("/large/:bytes") { _, context in
            let count = Int(context.parameters["bytes"] ?? "") ?? 0
            return HTTPResponse(contentType: "application/octet-stream", bytes: [UInt8](repeating: 120, count: count))
        }
        router.get("/stream/:parts") { _, context in
            let parts = Int(context.parameters["parts"] ?? "") ?? 0
            return HTTPResponse(
                headers: [.contentType: "text/plain"],
                body: .stream(
                    HTTPBodyStream { writer in
                        for index in 0..<parts { try await writer.write(Array("part \(index)\n".utf8)) }
                    }))
        }
    }
}
