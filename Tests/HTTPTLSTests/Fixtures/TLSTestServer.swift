import Foundation
import HTTPCore
import HTTPTLS
import Logging
import TestSupport

/// An HTTPS server on 127.0.0.1, port 0, with a fresh self-signed pair and a few routes:
/// `GET /hello` ("hello"), `GET /items/:id` ("item ID"), `GET /big` (`bigSize` bytes of a repeating pattern).
final class TLSTestServer: Sendable {
    static let bigSize = 4 * 1024 * 1024
    static let bigBody: [UInt8] = (0..<bigSize).map { UInt8(truncatingIfNeeded: $0 % 251) }

    let server: HTTPServer
    let tls: TLSContext
    let certificates: TestCertificates
    let port: Int

    init(
        // The write timeout counts from the server's last write that made progress; with megabytes of socket
        // buffer and a client slowed to ~10 KB/s (ThreadSanitizer, the whole suite on 2 cores: 475 KB of /big in
        // 52 s), the kernel can take longer than 30 s to free room, so it stretches like the handshake bound. The
        // read and idle timeouts are as generous: a test's next step can wait long for a thread on a busy machine.
        timeouts: HTTPTimeouts = HTTPTimeouts(
            headerRead: TestDeadline.scaled(.seconds(120)), bodyRead: TestDeadline.scaled(.seconds(120)),
            idle: TestDeadline.scaled(.seconds(120)), write: TestDeadline.scaled(.seconds(120)),
            lingeringClose: .milliseconds(100), handshake: TestDeadline.scaled(.seconds(120))),
        maxConnections: Int = 20_000
    ) async throws {
        certificates = try await TestCertificates()
        tls = try TLSContext(
            configuration: .init(certificatePath: certificates.certificatePath, keyPath: certificates.keyPath))
        var router = Router()
        router.get("/hello") { _, _ in HTTPResponse(contentType: "text/plain", bytes: Array("hello".utf8)) }
        router.get("/items/:id") { _, context in
            HTTPResponse(contentType: "text/plain", bytes: Array("item \(context.parameters["id"] ?? "")".utf8))
        }
        router.get("/big") { _, _ in HTTPResponse(contentType: "application/octet-stream", bytes: Self.bigBody) }
        var logger = Logger(label: "tls-test")
        logger.logLevel = .critical
        let configuration = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, eventLoopCount: 2, maxConnections: maxConnections, timeouts: timeouts)
        server = HTTPServer(configuration: configuration, responder: router, logger: logger, security: tls)
        try server.start()
        port = server.localAddress!.port
    }

    func stop() async {
        server.shutdown()
        await server.waitUntilStopped()
        certificates.remove()
    }

    /// Waits (polling, bounded) until the server has `count` open connections.
    func waitForOpenConnections(_ count: Int, timeout: Duration = .seconds(60)) async -> Bool {
        await eventually(timeout: timeout) { server.openConnectionCount == count }
    }
}
