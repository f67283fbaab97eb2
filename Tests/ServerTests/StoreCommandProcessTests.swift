import Foundation
import Testing
import TestSupport

/// What the store's commands say when the path they are given is not what they need: `serve --data-dir` naming a
/// file or a broken link, `check` and `backup` of a directory holding no store (66, not the corrupt store's 65), and
/// `backup` into a file that exists (the message names the output, not the data directory).
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct StoreCommandProcessTests {
    /// A fresh temporary directory for one test.
    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-store-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aDataDirectoryThatIsAFileALoopOrALinkToNothingSaysWhatItIs() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let loop = directory + "/loop"
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let dangling = directory + "/dangling"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: directory + "/nowhere")
        for (path, words) in [
            (file, "it is a file, not a directory"), (loop, "it is a symbolic link loop (it points to \(loop), which leads back to itself)"),
            (dangling, "it is a symbolic link to \(directory)/nowhere, which does not exist"),
        ] {
            let result = try await ServerProcess.run(["serve", "--port", "0", "--store", "sqlite", "--data-dir", path])
            #expect(result.status == 73, "\(path): \(result.stderr)")
            #expect(result.stderr == "viewhost: cannot use data directory \(path): \(words)\n")
        }
    }

    @Test func checkAndBackupOfADirectoryWithoutAStoreExit66() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let check = try await ServerProcess.run(["check", "--data-dir", directory])
        #expect(check.status == 66)
        #expect(check.stderr == "viewhost: \(directory)/viewhost.sqlite: no store here (the server has not run with this --data-dir)\n")
        let backup = try await ServerProcess.run(["backup", "--data-dir", directory, "--output", directory + "/copy"])
        #expect(backup.status == 66, "\(backup.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/copy"))
    }

    @Test func backupIntoAnExistingFileNamesTheOutput() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A store: a server that ran once with this directory.
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory + "/data"])
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        let output = directory + "/existing.sqlite"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: output))
        let backup = try await ServerProcess.run(["backup", "--data-dir", directory + "/data", "--output", output])
        #expect(backup.status == 73)
        #expect(backup.stderr == "viewhost: cannot write \(output): it exists already; name a new file\n")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me")
    }
}
