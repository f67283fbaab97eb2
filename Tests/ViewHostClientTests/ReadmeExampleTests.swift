import Foundation
import TestSupport
import Testing
import ChatAPI
import LoginAPI
import PersonAPI
import WeatherAPI
import ViewHostAPI
import ViewHostClient

/// The README's "Swift client" example, as written there, against the real binary: if it stops compiling or
/// working, the README is wrong.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ReadmeExampleTests {
    @Test func theReadmeExampleCompilesAndWorks() async throws {
        let server = try await TestServer.start()
        let baseURL = "http://127.0.0.1:\(server.port)"
        var badges: [Int] = []

        let client = ViewHostClient(baseURL: URL(string: baseURL)!)
        let session = try await client.createSession()
        try await session.send(ChatIntent.addChat)  // typed events, per feature
        let chat = try await session.snapshot(ChatSnapshot.self)  // typed, ETag-aware
        try await session.perform(chat.chatList.actions.addChat)  // any action a snapshot offers, as it is
        for try await change in session.changes() {  // the event stream
            if change.feature == "chat" { badges.append(try change.decode(ChatSnapshot.self).badge) }
            if !badges.isEmpty { break }
        }
        let again = client.session(id: session.id, token: session.token)  // reopen a session later

        #expect(chat.navigation == [.chatList, .createChat])
        #expect(badges.count == 1)
        #expect(try await again.snapshot(ChatSnapshot.self).version >= chat.version)
    }
}
