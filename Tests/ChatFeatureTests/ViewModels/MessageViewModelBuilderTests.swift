import Foundation
import Testing
import ChatAPI
import ViewHostAPI

@testable import ChatFeature

struct MessageViewModelBuilderTests {
    let renderer = DateRenderer(timeZone: .gmt)

    @Test func sendingShowsSendingDots() {
        let bubble = MessageViewModelBuilder.build(for: .user(3, state: .sending), dateRenderer: renderer)
        #expect(bubble.sendStatus == "Sending...")
        #expect(bubble.readStatus == .unread)
    }

    @Test func sentAndReadShowTheSendDate() {
        for state: Message.State in [.sent, .read(readDate: .fixture)] {
            let bubble = MessageViewModelBuilder.build(
                for: .user(3, state: state, at: .fixture), dateRenderer: renderer)
            #expect(bubble.sendStatus == "23-11-2026 14:00")
        }
    }

    @Test func readCheckmarkOnlyOnUsersOwnMessagesQuirkFixed() {
        let read = Message.State.read(readDate: .fixture)
        #expect(MessageViewModelBuilder.build(for: .user(1, state: read), dateRenderer: renderer).readStatus == .read)
        #expect(MessageViewModelBuilder.build(for: .make(state: read), dateRenderer: renderer).readStatus == .unread)
        #expect(
            MessageViewModelBuilder.build(for: .user(1, state: .sent), dateRenderer: renderer).readStatus == .unread)
        #expect(MessageViewModel.Status.read.rawValue == "✓")
        #expect(MessageViewModel.Status.unread.rawValue == "")
    }

    @Test func carriesSenderTextAndID() {
        let other = MessageViewModelBuilder.build(for: .make(id: 7), dateRenderer: renderer)
        #expect(other.sentBy == .other)
        #expect(other.message == "Hi, you're here too?")
        #expect(other.id == "m7")
        #expect(MessageViewModelBuilder.build(for: .user(8), dateRenderer: renderer).sentBy == .user)
    }
}
