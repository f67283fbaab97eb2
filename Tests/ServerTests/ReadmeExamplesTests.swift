import Foundation
import TestSupport
import Testing

/// The README's `console` blocks, every one of them, pasted against the real binary as a reader pastes them: when the
/// server's output changes, the README has to change with it (the HTTPS example once showed a cipher the server no
/// longer picks first), and a block that races the server's timers fails here before it fails a reader. What differs
/// on every run is made alike on both sides first (``ReadmeOutputNormalisation``); commands are run as written but for
/// the port (each server here listens on a free one), `/tmp/vh-` files (in a directory of the test's own) and the
/// HTTPS example's `pgrep -f`, which names the server the test started by its pid rather than match by name.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ReadmeExamplesTests {
    /// Every block is in exactly one part that a test below pastes; a renamed heading leaves no part empty.
    @Test func everyConsoleBlockIsPastedByATest() throws {
        let readme = try ReadmeDocument.load()
        let parts = ReadmeExample.allCases.map { ($0, $0.blocks(in: readme).map(\.line)) }
        for block in readme.blocks {
            let owners = parts.filter { $0.1.contains(block.line) }.map(\.0)
            #expect(
                owners.count == 1,
                "README.md line \(block.line + 1) (under \(block.heading), `\(block.commands.first ?? "")`) is pasted by \(owners): add it to one part of ReadmeExample, and a test that pastes it")
        }
        for (part, lines) in parts { #expect(!lines.isEmpty, "\(part) finds no block in README.md") }
    }

    /// The command-line client's block, pasted in one go at simulation speed 1 (the README's `scripts/run.sh`
    /// speed) against a server started as the README starts it: every command's output as the README shows it, but
    /// for `seq` numbers (other features move them on their own time). The background watch's lines may come
    /// between others' in any order; every other line comes in the README's order. Its `/tmp/vh-` file lives in a
    /// directory of the test's own.
    @Test func theClientBlockWorksPastedAtSpeedOne() async throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(arguments: ["serve", "--port", "0"])
        let block = try #require(ReadmeExample.client.blocks(in: try ReadmeDocument.load()).first)
        let binaries = URL(fileURLWithPath: try ServerProcess.binaryPath()).deletingLastPathComponent().path
        let script = "exec 2>&1\nexport PATH=\(binaries):$PATH\n"
            + block.commands.joined(separator: "\n").replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)")
                .replacingOccurrences(of: "/tmp/vh-", with: "\(directory)/vh-")
            + "\nwait\n"
        let run = try await ServerProcess.run(executable: "bash", ["-c", script], timeout: .seconds(120))
        #expect(run.status == 0, "\(run)")
        func normalised(_ lines: [String]) -> [String] {
            lines.map { $0.replacing(#/seq [0-9]+/#, with: "seq N") }
        }
        let shown = normalised(block.output)
        let printed = normalised(run.stdout.split(separator: "\n").map(String.init))
        #expect(printed.sorted() == shown.sorted(), "printed:\n\(printed.joined(separator: "\n"))")
        func isWatchLine(_ line: String) -> Bool { line.hasPrefix("login  v") || line.hasPrefix("person  v") }
        #expect(printed.filter { !isWatchLine($0) } == shown.filter { !isWatchLine($0) })
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// A fresh directory for a test's files (the README's `/tmp/vh-…` files, a data directory).
    static func makeDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-readme-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Each command's printed lines against the README's, normalised; one expectation per command, naming it.
    static func expectOutputs(of steps: [ReadmeConsoleBlock.Step], printed run: ReadmePaste.Run) {
        #expect(run.outputs.count == steps.count, "the paste ended after \(run.outputs.count) of \(steps.count) commands: \(run)")
        var shown = ReadmeOutputNormalisation()
        var printed = ReadmeOutputNormalisation()
        for (step, output) in zip(steps, run.outputs) {
            let expected = shown.normalised(step.output, of: step.command)
            let actual = printed.normalised(output, of: step.command)
            #expect(
                actual == expected,
                "$ \(step.command)\nprinted:\n\(output.joined(separator: "\n"))\nnormalised:\n\(actual.joined(separator: "\n"))\nREADME, normalised:\n\(expected.joined(separator: "\n"))\n\(run)")
        }
    }
}

extension ReadmeExamplesTests {
    /// The process contract's block, pasted after the HTTPS example left its mismatched pair behind: each failure
    /// prints the README's line and exit status. Its files live in a directory of the test's own, not `/tmp`.
    @Test func theProcessContractBlockPrintsWhatTheReadmeShows() async throws {
        let block = try #require(ReadmeExample.processContract.blocks(in: try ReadmeDocument.load()).first)
        let directory = try Self.makeDirectory()
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
        let block = try #require(ReadmeExample.backup.blocks(in: try ReadmeDocument.load()).first)
        let directory = try Self.makeDirectory()
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
        let block = try #require(ReadmeExample.cors.blocks(in: try ReadmeDocument.load()).first)
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0"], environment: ["VIEWHOST_CORS_ALLOWED_ORIGINS": "http://localhost:3000"])
        let paste = ReadmePaste(commandReplacements: [("127.0.0.1:8081", "127.0.0.1:\(server.port)")])
        let run = try await paste.run(block.commands, in: directory, timeout: .seconds(60))
        Self.expectOutputs(of: block.steps, printed: run)
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }
}
