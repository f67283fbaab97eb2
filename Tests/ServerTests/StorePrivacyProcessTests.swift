import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What users type is not kept where others may read it: the data directory is private (0700) and its files too
/// (0600, a backup as well), and the login feature keeps a password's length, never its text (not in the state,
/// not in the journal, not base64 inside it).
@Suite(.timeLimit(.minutes(TestDeadline.minutes(2))))
struct StorePrivacyProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-private-\(UUID().uuidString)").path

    static let passwords = ["Hunter2Hunter2Hunter2", "Tr0ub4dor&3-correct-horse-battery"]

    @Test func storeFilesArePrivateAndNoPasswordIsKept() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory],
            environment: ["VIEWHOST_LOG_ACCESS": "false"])
        let (id, token) = try await ProcessHTTP.createSession(server.port, features: ["login"])
        for password in Self.passwords {
            let posted = try await ProcessHTTP.request(
                server.port, "POST", "/v1/sessions/\(id)/login/events", token: token,
                body: #"{"type":"setPassword","value":"\#(password)"}"#)
            #expect(posted.status == 202, "\(posted)")
        }
        let login = try await ProcessHTTP.request(server.port, "GET", "/v1/sessions/\(id)/login", token: token)
        #expect(ProcessHTTP.json(login)?["passwordLength"] as? Int == Self.passwords[1].utf16.count)
        #expect(try Self.mode(of: directory) == 0o700)
        let files = ["viewhost.sqlite", "viewhost.sqlite-wal", "viewhost.sqlite-shm", "viewhost.lock"]
        for file in files {
            #expect(try Self.mode(of: directory + "/" + file) == 0o600, "\(file)")
        }
        try Self.expectNoPassword(in: files.prefix(2).map { directory + "/" + $0 })

        let backup = directory + "-backup.sqlite"
        defer { try? FileManager.default.removeItem(atPath: backup) }
        let copied = try await ServerProcess.run(["backup", "--data-dir", directory, "--output", backup])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(try Self.mode(of: backup) == 0o600)
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        try Self.expectNoPassword(in: [directory + "/viewhost.sqlite", backup])

        // The journal replays after a restart (its events were written in the feature's schema 2 shape).
        let restarted = try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory],
            environment: ["VIEWHOST_LOG_ACCESS": "false"])
        let again = try await ProcessHTTP.request(restarted.port, "GET", "/v1/sessions/\(id)/login", token: token)
        #expect(again.status == 200, "\(again)")
        #expect(again.text == login.text)
        restarted.send(signal: SIGTERM)
        #expect(try await restarted.waitForExit() == 0)
    }

    static func mode(of path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Neither password's text is in `files`, nor its base64 (at any of the three alignments it can take).
    static func expectNoPassword(in files: [String]) throws {
        for file in files {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            for password in passwords {
                let text = Array(password.utf8)
                var needles = [text]
                for shift in 0..<3 {
                    let aligned = text.dropFirst(shift)
                    let whole = aligned.prefix(aligned.count / 3 * 3)
                    needles.append(Array(Data(whole).base64EncodedString().utf8))
                }
                for needle in needles {
                    #expect(bytes.range(of: Data(needle)) == nil, "\(file) holds \(String(decoding: needle, as: UTF8.self))")
                }
            }
        }
    }
}
