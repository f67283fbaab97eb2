import Foundation
import Testing
import ChatAPI
import ViewHostAPI
import ViewModelCore

@testable import ChatFeature

struct ChatListItemViewModelBuilderTests {
    let renderer = DateRenderer(timeZone: .gmt)

    @Test func itemShowsLastMessageTextAndRenderedDate() {
        let chat = Chat.make(messages: [
            .make(id: 1), .user(2, "Later", state: .sent, at: .fixture.addingTimeInterval(120)),
        ])
        let item = ChatListItemViewModelBuilder.build(for: chat, dateRenderer: renderer)
        #expect(item.contact == "John")
        #expect(item.message == "Later")
        #expect(item.lastMessageDate == "23-11-2026 14:02")
    }

    @Test func itemOfEmptyChatShowsEmptyTextAndDate() {
        let item = ChatListItemViewModelBuilder.build(for: .make(contact: "Ann", messages: []), dateRenderer: renderer)
        #expect(item.message == "")
        #expect(item.lastMessageDate == "")
        #expect(item.unreadMessageCount == 0)
    }

    @Test func unreadCountIsOthersMessagesSendingOrSent() {
        let chat = Chat.make(messages: [
            .make(id: 1, state: .sent), .make(id: 2, state: .sending), .make(id: 3, state: .read(readDate: .fixture)),
            .user(4, state: .sent), .user(5, state: .sending),
        ])
        #expect(ChatListItemViewModelBuilder.build(for: chat, dateRenderer: renderer).unreadMessageCount == 2)
    }

    @Test func itemTappedOpensThatChat() {
        let item = ChatListItemViewModelBuilder.build(for: .john, dateRenderer: renderer)
        #expect(item.actions.itemTapped == ActionDescriptor(event: "openChat", fields: ["contact": "John"]))
    }

    @Test func rowOfAListOlderThanTheChatShowsWhatTheListShowedThen() {
        let chat = Chat.make(messages: [.make(id: 1), .user(2, "Not refreshed yet")])
        let item = ChatListItemViewModelBuilder.build(for: chat, shownUpTo: 1, dateRenderer: renderer)
        #expect(item.message == "Hi, you're here too?")
        #expect(ChatListItemViewModelBuilder.build(for: chat, shownUpTo: 0, dateRenderer: renderer).message == "")
    }
}
