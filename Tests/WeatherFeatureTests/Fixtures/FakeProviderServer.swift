import Foundation
import HTTPCore
import Logging
import ViewHostLocking

/// A local stand-in for Open-Meteo and Weatherbit on 127.0.0.1, port 0: each path answers from a script of
/// replies (the last one repeats), and every request's target is recorded.
final class FakeProviderServer: Sendable {
    /// One scripted reply.
    enum Reply: Sendable {
        /// `200` with a fixture file's JSON.
        case fixture(String)
        /// `200` with these bytes as JSON (bad JSON included).
        case body(String)
        /// An error status with a small body.
        case status(Int)
        /// Nothing until `gate` opens, then `reply` (a timeout, as the client sees it).
        indirect case held(Gate, then: Reply)
    }

    private let server: HTTPServer
    private let scripts: Locked<[String: [Reply]]>
    private let recorded = Locked<[String]>([])
    /// The port it listens on.
    let port: Int

    /// Starts a server answering `scripts` (path → replies, in order).
    init(_ scripts: [String: [Reply]]) throws {
        self.scripts = Locked(scripts)
        var router = Router()
        let box = Box()
        for path in scripts.keys {
            router.on(.get, path) { request, _ in
                guard let server = box.server else { return .response(HTTPResponse(status: .serviceUnavailable)) }
                server.recorded.withLock { $0.append(request.target) }
                return server.answer(server.nextReply(for: path))
            }
        }
        var logger = Logger(label: "fake-provider")
        logger.logLevel = .critical
        server = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: "127.0.0.1", port: 0, eventLoopCount: 1,
                // Short lingering close and drain: a client that gave up (a timeout test) must not hold up `stop`.
                timeouts: HTTPTimeouts(drain: .seconds(2), lingeringClose: .milliseconds(50))),
            responder: router, logger: logger)
        try server.start()
        port = server.localAddress!.port
        box.server = self
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The request targets (path and query) received so far, in order.
    var requests: [String] { recorded.withLock { $0 } }

    /// Stops the server and waits until it has.
    func stop() async {
        server.shutdown()
        await server.waitUntilStopped()
    }

    private func nextReply(for path: String) -> Reply {
        scripts.withLock { scripts in
            guard let replies = scripts[path], let first = replies.first else { return .status(404) }
            if replies.count > 1 { scripts[path] = Array(replies.dropFirst()) }
            return first
        }
    }

    private func answer(_ reply: Reply) -> HTTPHandlerResult {
        switch reply {
        case .fixture(let name):
            .response(HTTPResponse(contentType: "application/json", bytes: FixtureFile.bytes(name)))
        case .body(let text):
            .response(HTTPResponse(contentType: "application/json", bytes: Array(text.utf8)))
        case .status(let code):
            .response(
                HTTPResponse(
                    status: HTTPStatus(code: code, reasonPhrase: "Scripted"), contentType: "application/json",
                    bytes: Array(#"{"error":"scripted"}"#.utf8)))
        case .held(let gate, let then):
            .deferred {
                await gate.wait()
                return try await self.answer(then).response()
            }
        }
    }

    /// Lets the router's handlers reach the server object created after them.
    private final class Box: @unchecked Sendable {
        // Written once in `init` before the server accepts its first connection; only read afterwards.
        var server: FakeProviderServer?
    }
}
