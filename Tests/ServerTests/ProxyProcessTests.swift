import Foundation
import Testing
import TestSupport

/// Behind the shipped nginx (`Config/nginx.conf`) with `proxy.trusted` naming it, every client is counted by its own
/// address: one that spends its session allowance leaves the others theirs (before, every client behind nginx was
/// 127.0.0.1 and one could lock all out), the access log names each, and a header a client writes itself changes
/// nothing. Two clients on one machine: 127.0.0.1 and 127.0.0.2, bound as the source address.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ProxyProcessTests {
    /// The repository root: this file is `Tests/ServerTests/ProxyProcessTests.swift`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `POST /v1/sessions` from `source` to `port`, with `headers`; the status.
    private func createSession(port: Int, from source: String, headers: String = "") async throws -> Int {
        let client = try HTTPTestClient(port: port, source: source)
        try client.send(
            "POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\(headers)\r\n")
        return try await client.readResponse().status
    }

    @Test func eachClientBehindTheProxyHasItsOwnAllowanceAndIsLogged() async throws {
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0", "--log-format", "json"],
            environment: ["VIEWHOST_PROXY_TRUSTED": "127.0.0.1", "VIEWHOST_LIMITS_SESSIONS_PER_MINUTE_PER_CLIENT": "3"])
        let proxy = try await NginxProxy(
            configurationPath: Self.root.appendingPathComponent("Config/nginx.conf").path, upstreamPort: server.port)
        // 127.0.0.2 spends its three, naming someone else in both headers: nginx replaces Forwarded and appends the
        // peer to X-Forwarded-For, so the server still counts 127.0.0.2.
        let forged = "X-Forwarded-For: 198.51.100.9\r\nForwarded: for=198.51.100.9\r\n"
        for _ in 0..<3 {
            #expect(try await createSession(port: proxy.port, from: "127.0.0.2", headers: forged) == 201)
        }
        #expect(try await createSession(port: proxy.port, from: "127.0.0.2", headers: forged) == 429)
        // 127.0.0.1, through the same nginx, has its own allowance.
        #expect(try await createSession(port: proxy.port, from: "127.0.0.1") == 201)
        // Straight to the server, 127.0.0.2 is no trusted proxy: its headers are ignored, and it is over its rate.
        #expect(try await createSession(port: server.port, from: "127.0.0.2", headers: forged) == 429)
        await proxy.stop()
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)

        let created = server.standardErrorText().split(separator: "\n").compactMap { line -> (Int, String)? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["message"] as? String == "request", object["route"] as? String == "/v1/sessions",
                let status = object["status"] as? Int
            else { return nil }
            return (status, object["client"] as? String ?? "")
        }
        #expect(created.map(\.1) == ["127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.1", "127.0.0.2"])
        #expect(created.map(\.0) == [201, 201, 201, 429, 201, 429])
    }
}
