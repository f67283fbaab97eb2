import Foundation
import TestSupport
import Testing
import ChatAPI
import LoginAPI
import PersonAPI
import ViewHostAPI
import WeatherAPI
import ViewHostClient

/// Every feature walked end to end through the client's typed calls, against the real binary.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct FeatureWalkthroughTests {
    @Test func chatThroughIntentsAndOfferedActions() async throws {
        let server = try await TestServer.start()
        let session = try await TestServer.client(port: server.port).createSession(features: ["chat"])
        var changes = session.changes().makeAsyncIterator()

        // John's chat loads; tapping its row (the action as offered) opens it and reads his message.
        var chat = try await changes.next(ChatSnapshot.self) { !$0.chatList.chats.isEmpty }
        #expect(chat.chatList.chats.map(\.contact) == ["John"])
        #expect(chat.badge == 1)
        try await session.perform(chat.chatList.chats[0].actions.itemTapped)
        chat = try await changes.next(ChatSnapshot.self) { $0.navigation.last == .chat(contact: "John") }
        #expect(chat.navigation == [.chatList, .chat(contact: "John")])

        // A typed send, then the screen's own send action with its {text} filled in.
        try await session.send(ChatIntent.send(text: "Hey John"))
        chat = try await changes.next(ChatSnapshot.self) {
            $0.conversations["John"]?.messages.contains { $0.message == "Hey John" } == true
        }
        let send = try #require(chat.conversations["John"]).actions.send
        try await session.perform(send, filling: ["text": "Still there?"])
        chat = try await changes.next(ChatSnapshot.self) {
            $0.conversations["John"]?.messages.contains { $0.message == "Still there?" } == true
        }

        // Back, then a new chat through Create Chat's action.
        try await session.perform(chat.actions.back)
        _ = try await changes.next(ChatSnapshot.self) { $0.navigation == [.chatList] }
        try await session.send(ChatIntent.addChat)
        chat = try await changes.next(ChatSnapshot.self) { $0.createChat != nil }
        try await session.perform(try #require(chat.createChat).actions.create, filling: ["contact": "Ann"])
        chat = try await changes.next(ChatSnapshot.self) { $0.navigation == [.chatList, .chat(contact: "Ann")] }
        #expect(chat.chatList.chats.map(\.contact) == ["John", "Ann"])

        // The typed snapshot read agrees with the stream.
        let read = try await session.snapshot(ChatSnapshot.self)
        #expect(read.version >= chat.version)
        #expect(read.chatList.chats.map(\.contact) == ["John", "Ann"])
    }

    @Test func weatherChangesLocationAndLoads() async throws {
        let server = try await TestServer.start()
        let session = try await TestServer.client(port: server.port).createSession(features: ["weather"])
        var changes = session.changes().makeAsyncIterator()
        try await session.send(WeatherIntent.changeLocation(location: "Paris"))
        var weather = try await changes.next(WeatherSnapshot.self) {
            $0.status == .ready && $0.locationName == "Paris, France"
        }
        #expect(weather.provider == "offline")
        #expect(weather.actions.changeLocation.prompt?.title == "Choose location")

        try await session.perform(weather.actions.changeLocation, filling: ["location": "Tokyo"])
        weather = try await changes.next(WeatherSnapshot.self) {
            $0.status == .ready && $0.locationName.hasPrefix("Tokyo")
        }
        #expect(try await session.snapshot(WeatherSnapshot.self).locationName == weather.locationName)
    }

    @Test func loginBatchEnablesTheButton() async throws {
        let server = try await TestServer.start()
        let session = try await TestServer.client(port: server.port).createSession(features: ["login"])
        var login = try await session.snapshot(LoginSnapshot.self)
        #expect(login.loginEnabled == false)
        #expect(login.actions.login.isEnabled == false)

        let receipt = try await session.send([
            LoginIntent.setUsername(value: "annabelle"), .setPassword(value: "secret123"),
        ])
        #expect(receipt.accepted == 2)
        #expect(receipt.version == login.version + 2)
        login = try await session.snapshot(LoginSnapshot.self)
        #expect(login.version == receipt.version)
        #expect(login.username == "annabelle")
        #expect(login.loginEnabled)
        #expect(login.instruction == "")
        #expect(try await session.perform(login.actions.login).accepted == 1)
    }

    @Test func personIsReplaced() async throws {
        let server = try await TestServer.start()
        let session = try await TestServer.client(port: server.port).createSession(features: ["person"])
        let before = try await session.snapshot(PersonSnapshot.self)
        #expect(before.nameText == "Dr. first last")
        try await session.send(
            PersonIntent.setPerson(salutation: "Lady", firstName: "Ada", lastName: "Byron", birthdate: "1815-12-10"))
        let after = try await session.snapshot(PersonSnapshot.self)
        #expect(after.version == before.version + 1)
        #expect(after.nameText == "Lady Ada Byron")
        #expect(after.firstName == "Ada")
        #expect(after.birthdateText.hasSuffix("December 10, 1815"))
    }

    @Test func snapshotsRevalidateWithTheirETag() async throws {
        let server = try await TestServer.start()
        let session = try await TestServer.client(port: server.port).createSession(features: ["person"])
        let route = "/v1/sessions/:id/:feature"
        let first = try await session.snapshot(PersonSnapshot.self)
        let second = try await session.snapshot(PersonSnapshot.self)
        #expect(first == second)
        #expect(try await TestServer.requestCount(port: server.port, route: route, method: "GET", status: 304) == 1)
        try await session.send(
            PersonIntent.setPerson(firstName: "Grace", lastName: "Hopper", birthdate: "1906-12-09"))
        let third = try await session.snapshot(PersonSnapshot.self)
        #expect(third.version == first.version + 1)
        #expect(third.nameText == "Grace Hopper")
        #expect(try await TestServer.requestCount(port: server.port, route: route, method: "GET", status: 200) == 2)
    }

    @Test func aSessionReopensFromItsIDAndToken() async throws {
        let server = try await TestServer.start()
        let client = TestServer.client(port: server.port)
        let created = try await client.createSession(features: ["login", "person"])
        try await created.send(LoginIntent.setUsername(value: "reopened"))
        let reopened = client.session(id: created.id, token: created.token)
        #expect(try await reopened.snapshot(LoginSnapshot.self).username == "reopened")
        let info = try await reopened.info()
        #expect(info.id == created.id)
        #expect(Set(info.features.keys) == ["login", "person"])
        try await reopened.delete()
        await #expect(throws: ViewHostError.self) { try await created.snapshot(LoginSnapshot.self) }
    }
}
