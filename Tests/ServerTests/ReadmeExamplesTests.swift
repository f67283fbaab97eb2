import Foundation
import TestSupport
import Testing

/// The README's console examples that do not depend on ids, times or timers, run against the real binary: when the
/// server's output changes, the README has to change with it (issue: the HTTPS example showed a cipher the server
/// no longer picks first).
@Suite(.timeLimit(.minutes(5)))
struct ReadmeExamplesTests {
    /// The repository root: this file is `Tests/ServerTests/ReadmeExamplesTests.swift`.
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    static func readmeText() throws -> String {
        try String(contentsOf: readme, encoding: .utf8)
    }

    @Test func theHTTPSExampleShowsTheNegotiatedCipher() async throws {
        let certificates = try await TestCertificates()
        defer { certificates.remove() }
        let server = try await ServerProcess(arguments: [
            "serve", "--port", "0", "--tls-cert", certificates.certificatePath, "--tls-key", certificates.keyPath,
        ])
        let curl = try await ServerProcess.run(
            executable: "curl", ["-kvs", "https://127.0.0.1:\(server.port)/healthz", "-o", "/dev/null"])
        let line = try #require(
            curl.stderr.split(separator: "\n").first { $0.hasPrefix("* SSL connection using ") }, "\(curl.stderr)")
        #expect(try Self.readmeText().contains(String(line) + "\n"), "README.md should show: \(line)")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    @Test func theClientExamplesMatchTheCommandsOutput() async throws {
        let server = try await ServerProcess(arguments: ["serve", "--port", "0", "--simulation-speed", "50"])
        let base = ["VIEWHOST_SERVER": "http://127.0.0.1:\(server.port)"]
        let created = try await ServerProcess.run(["client", "session", "new", "--json"], environment: base)
        let fields = try JSONDecoder().decode([String: String].self, from: Data(created.stdout.utf8))
        let environment = base.merging(["VIEWHOST_SESSION": fields["id"] ?? "", "VIEWHOST_TOKEN": fields["token"] ?? ""]) { $1 }
        // John's chat loads after 0.5 s of simulated time (10 ms here).
        var actions = ""
        for _ in 0..<100 {
            actions = try await ServerProcess.run(["client", "actions", "chat"], environment: environment).stdout
            if actions.contains("itemTapped") { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let readme = try Self.readmeText()
        #expect(readme.contains("$ viewhost client actions chat\n" + actions), "README.md should show:\n\(actions)")

        let sent = try await ServerProcess.run(["client", "send", "chat", "openChat", "contact=John"], environment: environment)
        #expect(readme.contains("$ viewhost client send chat openChat contact=John\n" + sent.stdout), "\(sent.stdout)")

        let refused = try await ServerProcess.run(["client", "send", "weather", "changeLocation"], environment: environment)
        #expect(refused.status == 65)
        #expect(readme.contains(refused.stderr + "exit 65\n"), "README.md should show: \(refused.stderr)")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }
}
