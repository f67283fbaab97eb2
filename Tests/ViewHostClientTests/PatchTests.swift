import ChatAPI
import Foundation
import PersonAPI
import Testing
import TestSupport
import ViewHostAPI
@testable import ViewHostClient
import ViewHostJSON

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client reads patches when the server offers them: a read of a snapshot it holds gets the changes alone
/// (the server's access log shows the bytes), the change stream delivers patched snapshots that are the server's
/// versions exactly, and a patch that does not fit the snapshot held is never applied: the whole one is read.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(2))))
struct PatchTests {
    /// The JSON `GET /v1/sessions/{id}/{feature}?version=N` serves, parsed.
    static func served(_ port: Int, _ session: ViewHostSession, _ feature: String, version: Int) async throws -> ViewHostJSON.JSONValue {
        var request = URLRequest(url: TestServer.url(port: port).appendingPathComponent("/v1/sessions/\(session.id)/\(feature)"))
        request.url = URL(string: request.url!.absoluteString + "?version=\(version)")
        request.setValue("Bearer \(session.token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        try #require((response as? HTTPURLResponse)?.statusCode == 200)
        return try JSONParser.parse(Array(data), maxDepth: 256)
    }

    @Test func aSnapshotHeldIsRefreshedByAPatchThatIsTheServersVersion() async throws {
        let server = try await TestServer.start()
        let session = try await TestServer.client(port: server.port).createSession(features: ["person"])
        try await session.send(PersonIntent.setPerson(firstName: "Ada", lastName: "Byron", birthdate: "1815-12-10"))
        let whole = try await session.snapshot(PersonSnapshot.self)
        try await session.send(PersonIntent.setPerson(firstName: "Augusta", lastName: "Byron", birthdate: "1815-12-10"))
        let raw = try await session.snapshot(feature: "person")
        #expect(raw.version == whole.version + 1)
        #expect(try JSONParser.parse(Array(raw.json), maxDepth: 256).isEquivalent(
            to: try await Self.served(server.port, session, "person", version: raw.version)))
        let patched = try await session.snapshot(PersonSnapshot.self)
        #expect(patched.version == raw.version)
        #expect(patched.value == (try JSONDecoder().decode(PersonSnapshot.self, from: raw.json)))
        // The server sent the changes, not the snapshot: the second read's bytes in its access log.
        // (The whole read, the patched one, then the test's own read of the version: the log is written behind.)
        func reads() -> [Int] {
            server.standardErrorText().split(separator: "\n")
                .filter { $0.contains("route=/v1/sessions/:id/:feature") && $0.contains("status=200") }
                .compactMap { line in line.split(separator: " ").first { $0.hasPrefix("bytes=") }.flatMap { Int($0.dropFirst(6)) } }
        }
        try #require(await eventually(timeout: .seconds(30), interval: .milliseconds(50)) { reads().count >= 3 }, "\(reads())")
        let reads = reads()
        #expect(reads[1] * 3 < reads[0] * 2, "\(reads)")
    }

    @Test func theChangeStreamDeliversPatchedSnapshotsThatAreTheServersVersions() async throws {
        let server = try await TestServer.start()
        let session = try await TestServer.client(port: server.port).createSession(features: ["chat", "person"])
        var changes = session.changes().makeAsyncIterator()
        var compared = 0
        /// Reads changes, each compared with the version the server serves, until one of the chat satisfies `done`.
        func compareUntil(_ done: (ChatSnapshot) -> Bool) async throws {
            while let change = try await changes.next() {
                let served = try await Self.served(server.port, session, change.feature, version: change.version)
                #expect(try JSONParser.parse(Array(change.json), maxDepth: 256).isEquivalent(to: served), "\(change.feature) \(change.version)")
                compared += 1
                if change.feature == "chat", done(try change.decode(ChatSnapshot.self).value) { return }
            }
        }
        // John's chat is listed a moment after the session is made (a timer); opening it before is a 409.
        try await compareUntil { $0.chatList.chats.contains { $0.contact == "John" } }
        try await session.send(ChatIntent.openChat(contact: "John"))
        for number in 0..<4 { try await session.send(ChatIntent.send(text: "message \(number)")) }
        try await session.send(
            PersonIntent.setPerson(salutation: nil, firstName: "Ada", lastName: "Byron", birthdate: "1815-12-10"))
        try await compareUntil { $0.conversations["John"]?.messages.contains { $0.message == "message 3" } == true }
        #expect(compared >= 3)
    }

    @Test func aPatchThatDoesNotFitTheSnapshotHeldIsNeverApplied() throws {
        let base = Data(#"{"feature":"person","firstName":"Ada","version":3}"#.utf8)
        let patch = Data(#"[{"op":"test","path":"/version","value":3},{"op":"replace","path":"/firstName","value":"Bo"},{"op":"replace","path":"/version","value":4}]"#.utf8)
        let applied = try #require(SnapshotPatch.apply(patch, to: base, expecting: 4))
        #expect(try JSONParser.parse(Array(applied)) == .object([("feature", .string("person")), ("firstName", .string("Bo")), ("version", .number(4))]))
        // Another base version, another target version, a patch that does not parse or apply: nothing.
        #expect(SnapshotPatch.apply(patch, to: Data(#"{"firstName":"Ada","version":2}"#.utf8), expecting: 4) == nil)
        #expect(SnapshotPatch.apply(patch, to: base, expecting: 5) == nil)
        #expect(SnapshotPatch.apply(Data("not json".utf8), to: base, expecting: 4) == nil)
        #expect(SnapshotPatch.apply(Data(#"[{"op":"remove","path":"/nope"}]"#.utf8), to: base, expecting: 3) == nil)
        #expect(ViewHostSession.version(ofTag: "W/\"12\"") == 12)
        #expect(ViewHostSession.version(ofTag: "\"x\"") == nil)
        // A member's own view of a feature whose snapshot depends on its viewer: the version, a dot, its id.
        #expect(ViewHostSession.version(ofTag: "\"7.pbea\"") == 7)
        #expect(ViewHostSession.version(ofTag: "W/\"7.pbea\"") == 7)
        #expect(ViewHostSession.version(ofTag: "\"7.\"") == nil)
    }
}
