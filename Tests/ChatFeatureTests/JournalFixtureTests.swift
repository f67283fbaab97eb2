import ChatAPI
import ChatFeature
import Foundation
import Testing
import ViewHostTesting
import ViewModelCore

/// A user's session as a test fixture: `Journals/chat-bring-the-cake.ndjson` is the journal export of a real chat
/// session (`GET /v1/sessions/{id}/journal` of the viewhost server: John's chat opened, two messages sent, the bot's
/// replies, back to the list). `TestHost(journal:features:)` replays it: every version the user saw is there, and
/// the test goes on from where they were.
struct JournalFixtureTests {
    static let journal = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Journals/chat-bring-the-cake.ndjson")

    @Test func whatTheUserSawAtEachVersionIsThere() throws {
        let host = try TestHost(journal: Data(contentsOf: Self.journal), features: [.chat])
        #expect(host.version(of: ChatApp.key) == 16)
        #expect(host.snapshots(of: ChatApp.key).map(\.version) == Array(1...16))
        // Version 5: their first message, just sent, John's chat on screen.
        let sent = try #require(host.snapshot(of: ChatApp.key, version: 5))
        #expect(sent.navigation.count == 2)
        #expect(sent.conversations["John"]?.messages.last?.message == "Are you coming tonight?")
        // The last version: back on the list, John's chat with the bot's replies after the cake.
        let last = host.snapshot(of: ChatApp.key)
        #expect(last.navigation.count == 1)
        #expect(host.log.last?.event == "back")
    }

    @Test func theTestGoesOnFromWhereTheUserWas() throws {
        var host = try TestHost(journal: Data(contentsOf: Self.journal), features: [.chat])
        let before = host.version(of: ChatApp.key)
        try host.send(ChatIntent.openChat(contact: "John"), to: ChatApp.key)
        #expect(host.version(of: ChatApp.key) == before + 1)
        let chat = try #require(host.snapshot(of: ChatApp.key).conversations["John"])
        #expect(chat.messages.contains { $0.message == "Bring the cake!" })
    }

    @Test func aJournalThatDoesNotReadBackIsRefusedNamingItsLine() throws {
        let lines = try String(contentsOf: Self.journal, encoding: .utf8).split(separator: "\n")
        let cut = lines.dropLast().joined(separator: "\n") + "\n"
        #expect(throws: JournalImportError(line: lines.count - 1, reason: "the journal ends without its end line: it was cut short")) {
            _ = try TestHost(journal: Data(cut.utf8), features: [.chat])
        }
    }
}
