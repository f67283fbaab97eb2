import ChatAPI
import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewHostTesting
import ViewModelCore

@testable import ChatFeature

/// The chat's schema 2 (persons, and messages that were not delivered) opens what schema 1 stored, and serves every
/// snapshot member schema 1 served unchanged: snapshots may gain members across releases, never lose or change one.
struct ChatSchemaMigrationTests {
    static let journals = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Journals")

    /// What the release with schema 1 served for each version of `chat-bring-the-cake.ndjson` (`viewhost replay
    /// --feature chat` of that build, commit a0911b4), one snapshot a line.
    static func schemaOneSnapshots() throws -> [[String: Any]] {
        let text = try String(
            contentsOf: Self.journals.appendingPathComponent("chat-bring-the-cake.schema-1-snapshots.ndjson"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func aSchemaOneStateMigratesWithNoPersons() throws {
        let export = try String(contentsOf: Self.journals.appendingPathComponent("chat-bring-the-cake.ndjson"), encoding: .utf8)
        let header = try #require(
            try JSONSerialization.jsonObject(with: Data(export.prefix { $0 != "\n" }.utf8)) as? [String: Any])
        let base = try #require(header["base"] as? [String: Any])
        let slot = try #require((base["features"] as? [[String: Any]])?.first?["slot"] as? [String: Any])
        let stored = try JSONSerialization.data(withJSONObject: try #require(slot["state"]))
        let state = try StoredMigration.state(of: ChatApp.self, stored: stored, version: 1)
        #expect(state.people == PeopleState())
        #expect(state.screens.map(\.screen) == [ChatScreen.chatList])
        #expect(ChatApp.schemaVersion == 2)
        // Schema 2 refuses the same state as its own: `people` is required from now on.
        #expect(throws: (any Error).self) { _ = try StoredMigration.state(of: ChatApp.self, stored: stored, version: 2) }
    }

    @Test func everySnapshotMemberSchemaOneServedIsServedUnchanged() throws {
        let host = try TestHost(
            journal: Data(contentsOf: Self.journals.appendingPathComponent("chat-bring-the-cake.ndjson")), features: [.chat])
        let earlier = try Self.schemaOneSnapshots()
        #expect(earlier.count == 16)
        let session = "bxzkqdmx5kgm5mh41j966amv0t"
        let encoder = JSONEncoder()
        encoder.userInfo[.actionHref] = "/v1/sessions/\(session)/chat/events"
        encoder.userInfo[.invitationsHref] = "/v1/sessions/\(session)/invitations"
        for old in earlier {
            let version = try #require(old["version"] as? Int)
            let snapshot = try #require(host.snapshot(of: ChatApp.key, version: version))
            var served = try #require(
                try JSONSerialization.jsonObject(with: encoder.encode(snapshot)) as? [String: Any])
            served["feature"] = "chat"
            served["version"] = version
            #expect(SnapshotMembers.keep(served, old), "version \(version)")
        }
        // What it gained: the chat list's invitation action.
        let last = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(host.snapshot(of: ChatApp.key))) as? [String: Any])
        let chatList = try #require(last["chatList"] as? [String: Any])
        let actions = try #require(chatList["actions"] as? [String: Any])
        let invite = try #require(actions["invite"] as? [String: Any])
        #expect(invite["target"] as? String == "invitations")
    }

    @Test func schemaOneEventsReadAsTheyAre() throws {
        let stored = #"[{"intent":{"_0":{"type":"openChat","contact":"John"}}},{"message":{"_0":{"userRead":{"messagesSentBy":"John"}}}}]"#
        let events = try StoredMigration.events(of: ChatApp.self, stored: Data(stored.utf8), version: 1)
        #expect(events == [.intent(.openChat(contact: "John")), .message(.userRead(messagesSentBy: "John"))])
    }
}
