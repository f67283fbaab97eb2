import Foundation
import Testing
import ViewHostAPI

@testable import ChatFeature

/// The chats of a session are found by contact whether they are few (a scan, no table) or many (an index).
struct ChatModelTests {
    @Test func contactsAreFoundBeforeAndAfterTheIndexIsMade() throws {
        var model = ChatModel(configuration: ChatConfiguration())
        let contacts = (1...20).map { "contact \($0)" }
        for contact in contacts {
            model.create(chatWith: contact)
            for earlier in contacts.prefix(while: { $0 != contact }) + [contact] {
                #expect(model.hasChat(with: earlier))
            }
            #expect(!model.hasChat(with: "nobody"))
        }
        let made = model.create(message: "hi", to: "contact 17", now: .fixture)
        let message = try #require(made)
        #expect(model.chat(for: "contact 17")?.messages.map(\.id) == [message.id])
        #expect(model.chats.map(\.contact) == contacts)
        let decoded = try JSONDecoder().decode(ChatModel.self, from: try JSONEncoder().encode(model))
        #expect(decoded == model)
        #expect(decoded.chat(for: "contact 17")?.messages.map(\.id) == [message.id])
    }

    @Test func aLoadKeepsChatsMadeBeforeItAfterTheFetchedOnes() {
        var model = ChatModel(configuration: ChatConfiguration())
        model.create(chatWith: "Kate")
        let fetched = (1...9).map { Chat(contact: "friend \($0)") } + [Chat(contact: "friend 1")]
        model.load(chats: fetched)
        #expect(model.chats.map(\.contact) == (1...9).map { "friend \($0)" } + ["Kate"])
        #expect(model.hasChat(with: "Kate") && model.hasChat(with: "friend 9"))
        model.load(chats: [Chat(contact: "John")])
        #expect(model.chats.map(\.contact) == ["John"] + (1...9).map { "friend \($0)" } + ["Kate"])
        #expect(model.window(for: "Kate") != nil)
    }
}
