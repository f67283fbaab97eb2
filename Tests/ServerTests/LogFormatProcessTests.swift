import Foundation
import Testing
import TestSupport

/// `--log-format json` (config `log.format`): every line the process writes to stderr is one JSON object, the
/// access lines included, and they are all written out before the process exits on SIGTERM.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct LogFormatProcessTests {
    @Test func jsonFormatWritesOneObjectPerLineIncludingAccessLines() async throws {
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0", "--log-format", "json"], environment: ["VIEWHOST_STORE_KIND": "memory"])
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().status == 200)
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        let lines = server.standardErrorText().split(separator: "\n")
        #expect(!lines.isEmpty)
        var objects: [[String: Any]] = []
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON line: \(line)")
            if let object { objects.append(object) }
        }
        let access = objects.first { $0["message"] as? String == "request" && $0["route"] as? String == "/healthz" }
        #expect(access?["status"] as? Int == 200, "\(objects)")
        #expect(objects.contains { $0["message"] as? String == "draining" }, "lines logged at shutdown are flushed")
    }

    @Test func unknownFormatIsAUsageErrorNamingTheKey() async throws {
        let result = try await ServerProcess.run(["serve", "--port", "0", "--log-format", "xml"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("log.format"), "\(result.stderr)")
    }
}
