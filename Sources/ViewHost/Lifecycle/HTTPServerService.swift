public import HTTPCore
public import ServiceLifecycle

/// Runs an `HTTPServer` as a swift-service-lifecycle service: a graceful shutdown (SIGTERM, SIGINT) drains
/// it, and the service returns once every connection is closed.
public struct HTTPServerService: Service {
    /// The server, already started (so its address could be announced).
    public let server: HTTPServer

    /// Creates the service.
    public init(server: HTTPServer) {
        self.server = server
    }

    /// Waits for the started server to stop; a graceful shutdown makes it stop taking connections and drain.
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await server.run()  // already started: waits, and drains if the task is cancelled
        } onGracefulShutdown: {
            server.shutdown()
        }
    }
}
