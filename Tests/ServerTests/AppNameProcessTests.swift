import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// An app built on the library goes by its own name: the executable's, unless its `main` gives one. Its usage, its
/// error lines, its log and its readiness line say it (`tally listening on http://…`), and `--version` says which
/// ViewHost it runs on; before, every app printed `viewhost listening on …` and `USAGE: viewhost check`. The
/// `viewhost` binary, started here under another name, stands for such an app: its `main` gives no name.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(3))))
struct AppNameProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-name-\(UUID().uuidString)").path

    /// The `viewhost` binary as an app named `tally` (a link of that name).
    func app() throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let link = directory + "/tally"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: try ServerProcess.binaryPath())
        return link
    }

    @Test func theReadinessLineUsageErrorsAndLogUseTheAppsName() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = try app()
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "memory"], binary: app, name: "tally")
        #expect(server.readinessLine == "tally listening on http://127.0.0.1:\(server.port)")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        #expect(server.standardErrorText().contains(" tally: draining"), "\(server.standardErrorText())")

        let usage = try await ServerProcess.run(executable: app, ["check", "--help"])
        #expect(usage.status == 0)
        #expect(usage.stdout.contains("USAGE: tally check"), "\(usage.stdout)")
        #expect(!usage.stdout.contains("viewhost check"), "\(usage.stdout)")
        let serveHelp = try await ServerProcess.run(executable: app, ["serve", "--help"])
        #expect(serveHelp.stdout.contains("USAGE: tally serve"), "\(serveHelp.stdout)")
        #expect(serveHelp.stdout.contains("--weather-provider"), "the features' options: \(serveHelp.stdout)")

        let missing = try await ServerProcess.run(executable: app, ["check", "--data-dir", directory + "/none"])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("tally: \(directory)/none/viewhost.sqlite: no store here"), "\(missing.stderr)")
        let unknown = try await ServerProcess.run(executable: app, ["serve", "--no-such-flag"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("tally: "), "\(unknown.stderr)")

        let version = try await ServerProcess.run(executable: app, ["--version"])
        #expect(version.stdout.hasPrefix("tally 0."), "\(version.stdout)")
    }

    /// The `viewhost` binary under its own name says what it always said.
    @Test func viewhostKeepsItsLine() async throws {
        let server = try await ServerProcess(arguments: ["serve", "--port", "0", "--store", "memory"])
        #expect(server.readinessLine == "viewhost listening on http://127.0.0.1:\(server.port)")
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        let usage = try await ServerProcess.run(["check", "--help"])
        #expect(usage.stdout.contains("USAGE: viewhost check"), "\(usage.stdout)")
    }
}
