import Foundation
import Testing
import ChatAPI
import ViewHostAPI
import ViewModelCore

@testable import ChatFeature

struct ChatListViewModelBuilderTests {
    let renderer = DateRenderer(timeZone: .gmt)

    @Test func buildLoadingShowsEmptyMessageUnderSpinnerQuirkKept() {
        let list = ChatListViewModelBuilder.buildLoading()
        #expect(list.showSpinner)
        #expect(list.hideChats)
        #expect(!list.hideEmptyMessage)
        #expect(list.chats.isEmpty)
    }

    @Test func buildWithChatsHidesEmptyMessageAndShowsChatsWithoutSpinner() {
        let list = ChatListViewModelBuilder.build(for: [Chat.john], dateRenderer: renderer)
        #expect(!list.showSpinner)
        #expect(list.hideEmptyMessage)
        #expect(!list.hideChats)
        #expect(list.chats.map(\.contact) == ["John"])
    }

    @Test func buildWithoutChatsShowsEmptyMessageAndHidesChats() {
        let list = ChatListViewModelBuilder.build(for: [Chat](), dateRenderer: renderer)
        #expect(!list.showSpinner)
        #expect(!list.hideEmptyMessage)
        #expect(list.hideChats)
    }

    @Test func buildKeepsModelOrderWithoutSorting() {
        let chats = [
            Chat.make(contact: "Zed", messages: []), Chat.make(contact: "Ann", messages: []),
            Chat.make(contact: "Mo", messages: [.make(sendDate: .fixture.addingTimeInterval(-9_999))]),
        ]
        let list = ChatListViewModelBuilder.build(for: chats, dateRenderer: renderer)
        #expect(list.chats.map(\.contact) == ["Zed", "Ann", "Mo"])
    }

    @Test func showsTheOriginalsTextsAndAddChatAction() {
        for list in [
            ChatListViewModelBuilder.buildLoading(),
            ChatListViewModelBuilder.build(for: [Chat.john], dateRenderer: renderer),
        ] {
            #expect(list.title == "Chats")
            #expect(list.emptyMessage == "You don't have any conversations yet!")
            #expect(list.actions.addChat == ActionDescriptor(event: "addChat"))
        }
    }
}
