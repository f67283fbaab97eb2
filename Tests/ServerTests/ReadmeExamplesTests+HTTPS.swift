import Foundation
import TestSupport
import Testing

extension ReadmeExamplesTests {
    /// The HTTPS blocks: the certificate is made, the server started with the README's command (on a free port, its
    /// files in a directory of the test's own), the other shell's commands pasted in order, and what the server's
    /// shell shows compared with what it printed. The README finds the server with `pgrep -f 'serve --port 8443'`;
    /// here that names the server the test started, by its pid, so no other process that happens to match is
    /// signalled. The server's log lines are compared as a set: access lines are written by another thread than
    /// the reload's, and the README's wait for the renewed certificate may ask more than once.
    @Test func theHTTPSBlocksWorkPastedInOrder() async throws {
        let steps = ReadmeExample.https.blocks(in: try ReadmeDocument.load()).flatMap(\.steps)
        let isServer = { (step: ReadmeConsoleBlock.Step) in step.command.contains("viewhost serve ") }
        let servers = steps.filter(isServer)
        try #require(servers.count == 2, "the HTTPS example starts its server, then shows that server's shell")
        #expect(servers[0].command == servers[1].command, "the server's shell is the server the example started")
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = ("/tmp/vh-", "\(directory)/vh-")

        let start = try #require(steps.firstIndex(where: isServer))
        let certificate = Array(steps[..<start])
        Self.expectOutputs(
            of: certificate,
            printed: try await ReadmePaste(commandReplacements: [files]).run(certificate.map(\.command), in: directory, timeout: .seconds(60)))

        let arguments = try Self.serverArguments(servers[0].command)
            .map { $0 == "8443" ? "0" : $0.replacingOccurrences(of: files.0, with: files.1) }
        let server = try await ServerProcess(arguments: arguments)
        let ownPort = { (text: String) in text.replacingOccurrences(of: "127.0.0.1:\(server.port)", with: "127.0.0.1:8443") }
        #expect([ownPort(server.readinessLine)] == servers[0].output)

        // The other shell; its last command stops the server. Before it, the server has logged what the README's
        // server shell shows (the bad pair's reload fails a moment after its signal).
        let other = steps[(start + 1)...].filter { !isServer($0) }
        let paste = ReadmePaste(
            commandReplacements: [
                ("127.0.0.1:8443", "127.0.0.1:\(server.port)"), ("$(pgrep -f 'serve --port 8443')", "\(server.pid)"), files,
            ],
            outputReplacements: [("127.0.0.1:\(server.port)", "127.0.0.1:8443"), (files.1, files.0)])
        let last = try #require(other.last)
        try #require(last.command.hasPrefix("kill $(pgrep"), "the example ends by stopping the server")
        let requests = Array(other.dropLast())
        Self.expectOutputs(of: requests, printed: try await paste.run(requests.map(\.command), in: directory, timeout: .seconds(120)))
        var readme = ReadmeOutputNormalisation()
        let shown = Set(readme.normalised(servers[1].output, of: servers[1].command))
        func serverShell() -> Set<String> {
            let lines = (server.readinessLine + "\n" + server.standardErrorText()).split(separator: "\n")
                .map { ownPort(String($0)).replacingOccurrences(of: files.1, with: files.0) }
            var printed = ReadmeOutputNormalisation()
            return Set(printed.normalised(lines, of: servers[1].command))
        }
        let beforeStop = shown.filter { !$0.contains(" draining ") }
        let logged = await eventually(interval: .milliseconds(50)) { beforeStop.isSubset(of: serverShell()) }
        #expect(logged, "the server's shell shows:\n\(serverShell().sorted().joined(separator: "\n"))")
        Self.expectOutputs(of: [last], printed: try await paste.run([last.command], in: directory, timeout: .seconds(60)))
        #expect(try await server.waitForExit() == 0)
        #expect(serverShell() == shown)
    }
}
