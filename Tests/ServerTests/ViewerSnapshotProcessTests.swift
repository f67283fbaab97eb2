import Foundation
import Testing
import TestSupport

/// Snapshots that depend on who is looking, through a real binary (issue 43): `schema-test-server` with
/// `SCHEMA_TEST_SHARED=1` serves `board`, whose snapshot counts the items its viewer added (`addedByYou`), and
/// `shared`, the same for every viewer. The owner and a member of one shared session each see their own count on a
/// read, on a stream of whole snapshots, on a stream of patches and on a past version, each under a tag of its own;
/// `shared` serves both the same bytes under the same tag.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ViewerSnapshotProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vh-viewer-\(UUID())").path

    func start() async throws -> ServerProcess {
        let config = directory + ".json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: config))
        return try await ServerProcess(
            arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory, "--config", config],
            environment: ["SCHEMA_TEST_SHARED": "1"], binary: try TakeOverSchemaProcessTests.app(),
            name: "schema-test-server")
    }

    /// A stream of the session opened with `token` (`query` added), read up to its first `board` snapshot.
    static func stream(_ port: Int, session: String, token: String, query: String) async throws -> HTTPTestClient {
        let client = try HTTPTestClient(port: port)
        try client.send(
            "GET /v1/sessions/\(session)/stream?features=board\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer \(token)\r\n\r\n")
        _ = try await client.read(untilContaining: "event: board", timeout: TestDeadline.scaled(.seconds(30)))
        return client
    }

    /// The `data:` of the frame that ends with `marker` in `bytes`, as JSON.
    static func frame(_ bytes: [UInt8], endingWith marker: String) throws -> [String: Any] {
        let text = String(decoding: bytes, as: UTF8.self)
        let line = try #require(
            text.split(separator: "\n").last { $0.hasPrefix("data: ") && $0.contains(marker) }, "\(text)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(line.dropFirst("data: ".count).utf8)) as? [String: Any])
    }

    @Test func ownerAndMemberEachSeeTheirOwnCountEverywhereAndAPlainFeatureAlike() async throws {
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: directory + ".json")
        }
        let server = try await start()
        let port = server.port
        let owner = try await ProcessHTTP.createSession(port, features: ["board", "shared"])
        let code = try await SharedSessionProcessTests.invite(port, owner: owner)
        let bea = try await SharedSessionProcessTests.join(port, code: code, name: "Bea")
        // Five of the owner's first (versions 2 to 6): a list long enough that a patch is smaller than it.
        for number in 1...5 {
            let posted = try await ProcessHTTP.request(
                port, "POST", "/v1/sessions/\(owner.id)/board/events", token: owner.token,
                body: #"{"type":"add","text":"item number \#(number) of the list"}"#)
            #expect(posted.status == 202, "\(posted.text)")
        }
        let ownerStream = try await Self.stream(port, session: owner.id, token: owner.token, query: "")
        let beaStream = try await Self.stream(port, session: owner.id, token: bea.token, query: "")
        let beaPatches = try await Self.stream(port, session: owner.id, token: bea.token, query: "&patches=1")

        for (token, text) in [(bea.token, "milk"), (owner.token, "eggs"), (bea.token, "bread")] {
            let posted = try await ProcessHTTP.request(
                port, "POST", "/v1/sessions/\(owner.id)/board/events", token: token,
                body: #"{"type":"add","text":"\#(text)"}"#)
            #expect(posted.status == 202, "\(posted.text)")
        }

        // A read: each its own count, under a tag of its own.
        let ownersRead = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(owner.id)/board", token: owner.token)
        let beasRead = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(owner.id)/board", token: bea.token)
        #expect(ownersRead.header("etag") == "\"9\"")
        #expect(beasRead.header("etag") == "\"9.\(bea.id)\"")
        #expect(ProcessHTTP.json(ownersRead)?["addedByYou"] as? Int == 6)
        #expect(ProcessHTTP.json(beasRead)?["addedByYou"] as? Int == 2)
        #expect((ProcessHTTP.json(beasRead)?["items"] as? [Any])?.count == 8)
        let unchanged = try await ProcessHTTP.request(
            port, "GET", "/v1/sessions/\(owner.id)/board", token: bea.token,
            headers: ["If-None-Match": "\"9.\(bea.id)\""])
        #expect(unchanged.status == 304)

        // The streams: whole snapshots, each its own; Bea's patches run from her own view to her own view.
        let deadline = TestDeadline.scaled(.seconds(30))
        let ownersFrame = try Self.frame(
            try await ownerStream.read(untilContaining: #""version":9}"#, timeout: deadline), endingWith: #""version":9}"#)
        #expect(ownersFrame["addedByYou"] as? Int == 6)
        let beasFrame = try Self.frame(
            try await beaStream.read(untilContaining: #""version":9}"#, timeout: deadline), endingWith: #""version":9}"#)
        #expect(beasFrame["addedByYou"] as? Int == 2)
        let patchBytes = try await beaPatches.read(untilContaining: #""version":9}"#, timeout: deadline)
        #expect(String(decoding: patchBytes, as: UTF8.self).contains("event: board.patch"))
        let patchFrame = try Self.frame(patchBytes, endingWith: #""version":9}"#)
        let operations = try #require(patchFrame["patch"] as? [[String: Any]])
        let count = operations.first { $0["path"] as? String == "/addedByYou" }
        #expect(count?["op"] as? String == "replace" && count?["value"] as? Int == 2, "\(operations)")

        // A past version, as each saw it: after Bea's first item, she had added one and the owner five.
        let beasPast = try await ProcessHTTP.request(
            port, "GET", "/v1/sessions/\(owner.id)/board?version=7", token: bea.token)
        let ownersPast = try await ProcessHTTP.request(
            port, "GET", "/v1/sessions/\(owner.id)/board?version=7", token: owner.token)
        #expect(beasPast.header("etag") == "\"7.\(bea.id)\"" && ownersPast.header("etag") == "\"7\"")
        #expect(ProcessHTTP.json(beasPast)?["addedByYou"] as? Int == 1)
        #expect(ProcessHTTP.json(ownersPast)?["addedByYou"] as? Int == 5)

        // A feature that does not depend on its viewer: the same bytes under the same tag for both.
        for token in [owner.token, bea.token] {
            let posted = try await ProcessHTTP.request(
                port, "POST", "/v1/sessions/\(owner.id)/shared/events", token: token, body: #"{"type":"add"}"#)
            #expect(posted.status == 202, "\(posted.text)")
        }
        let ownersShared = try await ProcessHTTP.request(
            port, "GET", "/v1/sessions/\(owner.id)/shared", token: owner.token)
        let beasShared = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(owner.id)/shared", token: bea.token)
        #expect(ownersShared.status == 200 && ownersShared.header("etag") == "\"3\"")
        #expect(beasShared.header("etag") == ownersShared.header("etag") && beasShared.body == ownersShared.body)
        withExtendedLifetime((server, ownerStream, beaStream, beaPatches)) {}
    }
}
