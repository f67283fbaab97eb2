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

    /// The command-line client's block, pasted in one go at simulation speed 1 (the README's `scripts/run.sh`
    /// speed) against a server started as the README starts it: every command's output as the README shows it, but
    /// for `seq` numbers (other features move them on their own time). The background watch's lines may come
    /// between others' in any order; every other line comes in the README's order.
    @Test func theClientBlockWorksPastedAtSpeedOne() async throws {
        let server = try await ServerProcess(arguments: ["serve", "--port", "0"])
        let block = try #require(ReadmeConsoleBlock.all(in: try Self.readmeText()).first { $0.contains("$ export VIEWHOST_SERVER=") })
        let binaries = URL(fileURLWithPath: try ServerProcess.binaryPath()).deletingLastPathComponent().path
        let script = "exec 2>&1\nexport PATH=\(binaries):$PATH\n"
            + block.commands.joined(separator: "\n").replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)")
            + "\nwait\n"
        let run = try await ServerProcess.run(executable: "bash", ["-c", script], timeout: .seconds(120))
        #expect(run.status == 0, "\(run)")
        func normalised(_ lines: [String]) -> [String] {
            lines.map { $0.replacing(#/seq [0-9]+/#, with: "seq N") }
        }
        let shown = normalised(block.output)
        let printed = normalised(run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty })
        #expect(printed.sorted() == shown.sorted(), "printed:\n\(printed.joined(separator: "\n"))")
        func isWatchLine(_ line: String) -> Bool { line.hasPrefix("login  v") || line.hasPrefix("person  v") }
        #expect(printed.filter { !isWatchLine($0) } == shown.filter { !isWatchLine($0) })
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }
}

extension ReadmeExamplesTests {
    /// The Basics blocks (health, readiness, 404, 405, HEAD, keep-alive, pipelining), pasted in order against a
    /// server started as the README starts it: what each prints matches what the README shows, but for `Date`, the
    /// generated `X-Request-Id` and the port. (The `--port 0` block starts a server that runs on; the process
    /// contract tests check its readiness line.)
    @Test func theBasicsBlocksPrintWhatTheReadmeShows() async throws {
        let server = try await ServerProcess(arguments: ["serve", "--port", "0"])
        let text = try Self.readmeText()
        let basics = text[text.range(of: "### Basics")!.lowerBound..<text.range(of: "### Sessions")!.lowerBound]
        let blocks = ReadmeConsoleBlock.all(in: String(basics)).filter { !$0.contains("serve --port 0") }
        #expect(blocks.count == 6)
        for block in blocks {
            // Each command's output ends a line, as the next prompt starts a new one in the README.
            let script = block.commands.map { $0 + "\nprintf '\\n'" }.joined(separator: "\n")
                .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)")
                .replacingOccurrences(of: "127.0.0.1/8080", with: "127.0.0.1/\(server.port)")
            let run = try await ServerProcess.run(executable: "bash", ["-c", script], timeout: .seconds(60))
            #expect(run.status == 0, "\(block.commands): \(run)")
            let printed = run.stdout.replacingOccurrences(of: "\r", with: "")
                .replacingOccurrences(of: "port \(server.port) ", with: "port 8080 ")
                .split(separator: "\n").map(String.init)
            #expect(Self.normalised(printed) == Self.normalised(block.output), "\(block.commands)")
        }
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// The process contract's block, pasted after the HTTPS example left its mismatched pair behind: each failure
    /// prints the README's line and exit status. Its files live in a directory of the test's own, not `/tmp`.
    @Test func theProcessContractBlockPrintsWhatTheReadmeShows() async throws {
        let text = try Self.readmeText()
        let section = text[text.range(of: "## Process contract")!.lowerBound...]
        let block = try #require(ReadmeConsoleBlock.all(in: String(section)).first)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-readme-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // What the HTTPS example leaves: a certificate, and a key that is not its own.
        for (key, certificate) in [("vh-key.pem", "\(directory)/vh-cert.pem"), ("vh-other-key.pem", "/dev/null")] {
            let made = try await ServerProcess.run(
                executable: "openssl",
                ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=localhost",
                 "-days", "1", "-keyout", "\(directory)/\(key)", "-out", certificate])
            try #require(made.status == 0, "\(made)")
        }
        try FileManager.default.removeItem(atPath: "\(directory)/vh-key.pem")
        try FileManager.default.moveItem(atPath: "\(directory)/vh-other-key.pem", toPath: "\(directory)/vh-key.pem")
        let binary = try ServerProcess.binaryPath()
        let script = block.commands.joined(separator: "\n")
            .replacingOccurrences(of: ".build/debug/viewhost", with: binary)
            .replacingOccurrences(of: "/tmp/vh-", with: "\(directory)/vh-")
        let run = try await ServerProcess.run(
            executable: "bash", ["-c", "exec 2>&1\n" + script], environment: ["VIEWHOST_STORE_KIND": "sqlite"],
            timeout: .seconds(120))
        let printed = run.stdout.replacingOccurrences(of: "\(directory)/vh-", with: "/tmp/vh-").split(separator: "\n")
            .map(String.init)
        #expect(printed == block.output, "printed:\n\(printed.joined(separator: "\n"))")
    }

    /// The durable sessions' backup and restore block, pasted beside a server that keeps one session in `data/`
    /// (in a directory of the test's own, as are the block's `/tmp` files).
    @Test func theBackupBlockPrintsWhatTheReadmeShows() async throws {
        let text = try Self.readmeText()
        let section = text[text.range(of: "Backup while the server runs")!.lowerBound...]
        let block = try #require(ReadmeConsoleBlock.all(in: String(section)).first)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-readme-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0", "--data-dir", "\(directory)/data"], environment: ["VIEWHOST_STORE_KIND": "sqlite"])
        _ = try await ProcessHTTP.createSession(server.port, features: ["chat"])
        let script = "cd \(directory)\n" + block.commands.joined(separator: "\n")
            .replacingOccurrences(of: ".build/debug/viewhost", with: try ServerProcess.binaryPath())
            .replacingOccurrences(of: "/tmp/vh-", with: "\(directory)/vh-")
        let run = try await ServerProcess.run(executable: "bash", ["-c", "exec 2>&1\n" + script], timeout: .seconds(120))
        let printed = run.stdout.replacingOccurrences(of: "\(directory)/vh-", with: "/tmp/vh-").split(separator: "\n")
            .map(String.init)
        #expect(printed == block.output, "printed:\n\(printed.joined(separator: "\n"))")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// The CORS block against a server started as the README says (`VIEWHOST_CORS_ALLOWED_ORIGINS=…`): what it
    /// prints, but for `Date`, request ids and the port.
    @Test func theCORSBlockPrintsWhatTheReadmeShows() async throws {
        let text = try Self.readmeText()
        let section = text[text.range(of: "### CORS")!.lowerBound...]
        let block = try #require(ReadmeConsoleBlock.all(in: String(section)).first)
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0"], environment: ["VIEWHOST_CORS_ALLOWED_ORIGINS": "http://localhost:3000"])
        let script = block.commands.map { $0 + "\nprintf '\\n'" }.joined(separator: "\n")
            .replacingOccurrences(of: "127.0.0.1:8081", with: "127.0.0.1:\(server.port)")
        let run = try await ServerProcess.run(executable: "bash", ["-c", script], timeout: .seconds(60))
        let printed = run.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        #expect(Self.normalised(printed) == Self.normalised(block.output), "printed:\n\(printed.joined(separator: "\n"))")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// `lines` with what differs on every run made alike: dates and generated request ids.
    static func normalised(_ lines: [String]) -> [String] {
        lines.map { line in
            line.replacing(#/^Date: .*$/#, with: "Date: D").replacing(#/^X-Request-Id: [0-9a-z]{15}$/#, with: "X-Request-Id: R")
        }
    }
}

/// One `console` block of the README: its commands (the lines after `$ `) and what it shows they print.
struct ReadmeConsoleBlock {
    var commands: [String] = []
    var output: [String] = []
    private var lines: [String] = []

    /// Whether a line of the block is `text`, or contains it.
    func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }

    /// Every `console` block of `markdown`, in order.
    static func all(in markdown: String) -> [ReadmeConsoleBlock] {
        var blocks: [ReadmeConsoleBlock] = []
        var current: ReadmeConsoleBlock?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil {
                if line == "```console" { current = ReadmeConsoleBlock() }
                continue
            }
            if line == "```" {
                blocks.append(current!)
                current = nil
            } else if line.hasPrefix("$ ") {
                current!.commands.append(String(line.dropFirst(2)))
                current!.lines.append(line)
            } else {
                if !line.isEmpty { current!.output.append(line) }
                current!.lines.append(line)
            }
        }
        return blocks
    }
}
