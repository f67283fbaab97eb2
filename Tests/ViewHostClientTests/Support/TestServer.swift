import Foundation
import TestSupport
import ChatAPI
import LoginAPI
import PersonAPI
import WeatherAPI
import ViewHostAPI
import ViewHostClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Starting the real `viewhost` binary for the client's tests, and the client set up for tests: short waits
/// between retries and reconnects (the server's `retry: 1000` still applies to reconnects).
enum TestServer {
    /// `viewhost serve --port 0 --simulation-speed 50` with `arguments` and `environment` added.
    static func start(_ arguments: [String] = [], environment: [String: String] = [:]) async throws -> ServerProcess {
        try await ServerProcess(
            arguments: ["serve", "--port", "0", "--simulation-speed", "50"] + arguments, environment: environment)
    }

    /// The base URL of a server (or proxy) on `port`.
    static func url(port: Int) -> URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// A client of `port` with test-sized waits.
    static func client(port: Int, sendAttempts: Int = 4) -> ViewHostClient {
        var configuration = ViewHostClient.Configuration()
        configuration.sendAttempts = sendAttempts
        configuration.sendBackoff = Backoff(initial: .milliseconds(50), maximum: .milliseconds(200))
        configuration.reconnectBackoff = Backoff(initial: .milliseconds(50), maximum: .milliseconds(500))
        configuration.longPollWait = .seconds(5)
        configuration.fallbackPeriod = .seconds(5)
        return ViewHostClient(baseURL: url(port: port), configuration: configuration)
    }

    /// The server's open event streams (`viewhost_streams_open`).
    static func openStreams(port: Int) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: url(port: port).appendingPathComponent("metrics"))
        let prefix = "viewhost_streams_open "
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Double($0.dropFirst(prefix.count)) }.map { Int($0) } ?? -1
    }

    /// The server's `/metrics` counter of requests to `route` with `method` and `status`.
    static func requestCount(port: Int, route: String, method: String, status: Int) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: url(port: port).appendingPathComponent("metrics"))
        let prefix = #"viewhost_http_requests_total{route="\#(route)",method="\#(method)",status="\#(status)"} "#
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }
}

extension AsyncThrowingStream<ViewHostChange, any Error>.AsyncIterator {
    /// The next change of `Snapshot`'s feature that satisfies `predicate` (others are skipped).
    mutating func next<Snapshot: FeatureSnapshot>(
        _ type: Snapshot.Type, where predicate: (Versioned<Snapshot>) -> Bool = { _ in true }
    ) async throws -> Versioned<Snapshot> {
        while let change = try await next() {
            guard change.feature == Snapshot.feature else { continue }
            let snapshot = try change.decode(type)
            if predicate(snapshot) { return snapshot }
        }
        throw ViewHostError(kind: .sessionEnded, title: "ended", detail: "the changes ended")
    }
}
