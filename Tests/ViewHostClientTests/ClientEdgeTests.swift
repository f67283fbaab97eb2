import Foundation
import Testing
import TestSupport
import ViewHostClient

/// `viewhost client` where the server is not what it should be (down, a page from a proxy, broken JSON, a head and
/// then nothing, an endless answer) and where its own input is wrong: one line in words on stderr and the sysexits
/// status the README's table gives (64 usage, 65 refused, 69 unavailable, 75 try again, 76 protocol).
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ClientEdgeTests {
    static let sessionID = "0123456789abcdefghijklmnop"
    static let created = #"{"expiresAt":"2026-11-23T12:23:59Z","id":"\#(sessionID)","token":"t0ken"}"#

    private func client(
        _ arguments: [String], server: String? = nil, session: Bool = true
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        var environment = ["VIEWHOST_SERVER": server ?? "http://127.0.0.1:1"]
        if session { environment.merge(["VIEWHOST_SESSION": Self.sessionID, "VIEWHOST_TOKEN": "t0ken"]) { $1 } }
        return try await ServerProcess.run(["client"] + arguments, environment: environment, timeout: .seconds(120))
    }

    private static func answer(_ status: String, _ type: String, _ body: String) -> ScriptedHTTPServer.Reply {
        .raw("HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
    }

    @Test func anHTMLPageOrBrokenJSONWhereTheAPIAnswersIsAProtocolError() async throws {
        let html = try ScriptedHTTPServer { _ in Self.answer("200 OK", "text/html", "<html>welcome</html>") }
        for arguments in [["session", "new"], ["send", "login", "setUsername", "value=ann"]] {
            let result = try await client(arguments, server: html.url())
            #expect(result.status == 76, "\(arguments): \(result)")
            #expect(result.stderr.contains("answered 200 (text/html)"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        for (body, words) in [("{\"id\":", "it is not JSON"), (#"{"id":"x","expiresAt":"y"}"#, "it lacks 'token'"),
            (#"{"id":7,"token":"t","expiresAt":"y"}"#, "'id' is not a string")] {
            let broken = try ScriptedHTTPServer { _ in Self.answer("201 Created", "application/json", body) }
            let result = try await client(["session", "new"], server: broken.url())
            #expect(result.status == 76, "\(result)")
            #expect(result.stderr == "viewhost: 201 invalid response: the 201 answer is not what the API promises: \(words)\n")
        }
    }

    @Test func watchSaysWhyWhileItRetriesThenGivesUp() async throws {
        let failing = try ScriptedHTTPServer { _ in Self.answer("502 Bad Gateway", "text/html", "<html>down</html>") }
        let page = try ScriptedHTTPServer { _ in Self.answer("200 OK", "text/html", "<html>welcome</html>") }
        for (server, status, words) in [
            ("http://127.0.0.1:1", Int32(69), "cannot connect to the server at 127.0.0.1:1"),
            (failing.url(), 69, "502 Bad Gateway"), (page.url(), 76, "answered 200 (text/html), not an event stream"),
        ] {
            let result = try await client(["watch", "--give-up-after", "1"], server: server)
            #expect(result.status == status, "\(server): \(result)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.first?.contains(words) == true && lines.first?.hasSuffix("retrying (giving up after 1 s of this)") == true, "\(result.stderr)")
            #expect(lines.filter { $0.hasSuffix("retrying (giving up after 1 s of this)") }.count == 1, "one line per kind: \(result.stderr)")
            #expect(lines.contains("viewhost: gave up after 1 s of failures"), "\(result.stderr)")
        }
    }

    @Test func theServersPathIsKeptAsAPrefix() async throws {
        let proxy = try ScriptedHTTPServer { target in
            target.hasSuffix("/v1/sessions")
                ? Self.answer("201 Created", "application/json", Self.created)
                : Self.answer("200 OK", "application/json", #"{"feature":"login","version":3}"#)
        }
        let made = try await client(["session", "new"], server: proxy.url("/viewhost/"), session: false)
        #expect(made.status == 0, "\(made)")
        let got = try await client(["get", "login"], server: proxy.url("/viewhost"))
        #expect(got.status == 0, "\(got)")
        #expect(proxy.requests == ["/viewhost/v1/sessions", "/viewhost/v1/sessions/\(Self.sessionID)/login"])
    }

    @Test func idsAndFeatureNamesNeverBecomePathText() async throws {
        let server = try ScriptedHTTPServer { _ in Self.answer("404 Not Found", "application/json", "{}") }
        for arguments in [
            ["get", "login", "--session", "../../x"], ["get", "login", "--session", "a#b"],
            ["get", "../../metrics?"], ["send", "a/b", "x"], ["watch", "chat", "..", "--limit", "1"],
        ] {
            let result = try await client(arguments, server: server.url())
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.stderr.hasPrefix("viewhost: '") && result.stderr.contains("is not a"), "\(result.stderr)")
        }
        #expect(server.requests.isEmpty)
        // The library itself sends any id and name as one path segment each.
        let session = ViewHostClient(baseURL: URL(string: server.url())!).session(id: "../../x", token: "t")
        await #expect(throws: ViewHostError.self) { _ = try await session.snapshot(feature: "a#b?") }
        #expect(server.requests == ["/v1/sessions/%2E%2E%2F%2E%2E%2Fx/a%23b%3F"])
    }

    @Test func aLargeAnswerIsCutOffAndAStalledOneTimesOutInWords() async throws {
        let large = try ScriptedHTTPServer { _ in
            .body(head: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 209715200\r\n\r\n", bytes: 209_715_200)
        }
        let big = try await client(["get", "login"], server: large.url())
        #expect(big.status == 76, "\(big)")
        #expect(big.stderr == "viewhost: invalid response: the answer is larger than 16777216 bytes, the client's bound (maxAnswerBytes)\n")
        let stalled = try ScriptedHTTPServer { _ in
            .stallAfterHead("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
        }
        defer { stalled.stop() }
        let slow = try await client(["get", "login", "--timeout", "1"], server: stalled.url())
        #expect(slow.status == 69, "\(slow)")
        #expect(slow.stderr == "viewhost: transport: timed out after 1 s without an answer from the server at 127.0.0.1:\(stalled.port)\n")
    }

    @Test func usageErrorsSayWhatIsWrong() async throws {
        for arguments in [["session"], []] {
            let help = try await client(arguments, session: false)
            #expect(help.status == 64, "\(arguments): \(help)")
            #expect(help.stdout.isEmpty && help.stderr.contains("USAGE:"), "\(help)")
        }
        let limit = try await client(["watch", "--limit", "-1"])
        #expect(limit.status == 64)
        #expect(limit.stderr.contains("--limit must be at least 1"), "\(limit.stderr)")
        let twice = try await client(["send", "chat", "openChat", "contact=John", "contact=Ann"])
        #expect(twice.status == 64)
        #expect(twice.stderr == "viewhost: 'contact' is given twice; an event has one value per field\n")
    }

    @Test func anEventTheStateRefusesIsNotTransient() async throws {
        let server = try await TestServer.start()
        let base = ["VIEWHOST_SERVER": "http://127.0.0.1:\(server.port)"]
        let made = try await ServerProcess.run(["client", "session", "new", "--json", "--feature", "chat"], environment: base)
        let fields = try JSONDecoder().decode([String: String].self, from: Data(made.stdout.utf8))
        let environment = base.merging(["VIEWHOST_SESSION": fields["id"] ?? "", "VIEWHOST_TOKEN": fields["token"] ?? ""]) { $1 }
        let refused = try await ServerProcess.run(["client", "send", "chat", "send", "text=hi"], environment: environment)
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.hasPrefix("viewhost: 409 Conflict: "), "\(refused.stderr)")
        #expect(refused.stderr.contains("addChat"), "the allowed events are listed: \(refused.stderr)")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }
}
