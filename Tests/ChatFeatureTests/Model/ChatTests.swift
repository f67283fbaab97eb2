import Foundation
import Testing
import ViewHostAPI

import ChatAPI
@testable import ChatFeature

struct ChatTests {
    @Test func historyCapDropsTheOldestAndKeepsPositions() {
        var chat = Chat.make(messages: [])
        for id in 1...7 { chat.append(.user(id, state: .sent), keepingAtMost: 3) }
        #expect(chat.messages.map(\.id.value) == [5, 6, 7])
        #expect(chat.window == MessageWindow(start: 4, end: 7))
        #expect(
            chat.messageIDs(in: MessageWindow(start: 3, end: 6)) == [nil, MessageID(value: 5), MessageID(value: 6)])
    }

    @Test func unreadCountFollowsAppendsReadsAndTheCap() {
        var chat = Chat.make(messages: [])
        chat.append(.make(id: 1), keepingAtMost: 3)
        chat.append(.user(2), keepingAtMost: 3)
        chat.append(.make(id: 3), keepingAtMost: 3)
        #expect(chat.unreadCount == 2)
        chat.append(.user(4), keepingAtMost: 3)  // drops m1, which was unread
        #expect(chat.unreadCount == 1)
        #expect(chat.readOthersMessages(readDate: .fixture) == 1)
        #expect(chat.unreadCount == 0)
        #expect(chat.readOthersMessages(readDate: .fixture) == 0)
        chat.append(.make(id: 5), keepingAtMost: 3)
        #expect(chat.unreadCount == 1)
    }

    @Test func updateFindsMessagesByIDAfterManyDrops() {
        var chat = Chat.make(messages: [])
        for id in 1...1_000 { chat.append(.user(id), keepingAtMost: 10) }
        #expect(chat.update(MessageID(value: 995)) { $0.sent() })
        #expect(!chat.update(MessageID(value: 5)) { $0.sent() })
        #expect(chat.messages.first { $0.id.value == 995 }?.state == .sent)
    }

    @Test func lookupStillWorksWhenIDsAreNotAscending() {
        var chat = Chat.make(messages: [.user(9), .user(3), .user(5)])
        #expect(chat.update(MessageID(value: 3)) { $0.sent() })
        #expect(chat.messages.map(\.state) == [.sending, .sent, .sending])
    }

    @Test func lastMessageBeforeAPositionIsWhatAnOlderListShowed() {
        var chat = Chat.make(messages: [])
        #expect(chat.lastMessage(before: 0) == nil)
        for id in 1...5 { chat.append(.user(id), keepingAtMost: 3) }
        #expect(chat.lastMessage(before: 4)?.id.value == 4)
        #expect(chat.lastMessage(before: 9)?.id.value == 5)
        #expect(chat.lastMessage(before: 1)?.id.value == 3)  // dropped: the closest one still held
        #expect(chat.lastMessage(before: 0) == nil)
    }
}
