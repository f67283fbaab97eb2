import Foundation
import TestSupport
import Testing

extension ReadmeExamplesTests {
    /// "Try it", Basics to ending a session: every block pasted in order into one shell (the session's shell
    /// variables carry from block to block, as in a reader's), each command as soon as the one before it ends,
    /// against a server started as `scripts/run.sh` starts it: the SQLite store, simulation speed 1, so the chat
    /// partner takes real seconds. A block that needs him must wait for him (the README's long polls); one that
    /// raced him would print something else here.
    @Test func theTryItBlocksWorkPastedInOrderAtSpeedOne() async throws {
        let steps = ReadmeExample.tryIt.blocks(in: try ReadmeDocument.load()).flatMap(\.steps)
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0"],
            environment: ["VIEWHOST_STORE_KIND": "sqlite", "VIEWHOST_STORE_DATA_DIR": "\(directory)/data"])
        let paste = ReadmePaste(
            commandReplacements: [
                ("127.0.0.1:8080", "127.0.0.1:\(server.port)"), ("127.0.0.1/8080", "127.0.0.1/\(server.port)"),
                ("/tmp/vh-", "\(directory)/vh-"), (".build/debug/viewhost", try ServerProcess.binaryPath()),
            ],
            outputReplacements: [("port \(server.port) ", "port 8080 "), ("\(directory)/vh-", "/tmp/vh-")])
        // The chat partner alone takes up to a minute; the bound is for a server that stopped answering.
        let run = try await paste.run(steps.map(\.command), in: directory, timeout: .seconds(240))
        #expect(run.status == 0, "\(run)")
        Self.expectOutputs(of: steps, printed: run)
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// The `--port 0` block starts a second server that runs until stopped, so it is not pasted into the shell of
    /// the others: the test starts that command as a child (with the store in a directory of its own) and checks
    /// its readiness line, but for the port it picked, then stops it by its pid.
    @Test func thePortZeroBlockPrintsItsReadinessLine() async throws {
        let block = try #require(ReadmeExample.portZero.blocks(in: try ReadmeDocument.load()).first)
        let step = try #require(block.steps.first)
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(
            arguments: try Self.serverArguments(step.command),
            environment: ["VIEWHOST_STORE_KIND": "sqlite", "VIEWHOST_STORE_DATA_DIR": "\(directory)/data"])
        #expect(server.port != 0)
        func anyPort(_ line: String) -> String { line.replacing(#/:\d+$/#, with: ":«port»") }
        #expect(step.output.map(anyPort) == [anyPort(server.readinessLine)])
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// The arguments of a README command that runs `.build/debug/viewhost` (the test runs the binary it built).
    static func serverArguments(_ command: String) throws -> [String] {
        let words = command.split(separator: " ").map(String.init)
        try #require(words.first == ".build/debug/viewhost", "not a server command: \(command)")
        return Array(words.dropFirst())
    }
}
