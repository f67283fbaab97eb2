import Foundation
import TestSupport
import Testing
import ViewHostAPI
import ViewModelCore

import ChatAPI
@testable import ChatFeature

/// Many events in one session stay bounded by the history cap and stay cheap (the send benchmark's shape).
struct HistoryVolumeTests {
    @Test func thousandsOfSendsKeepTheNewestMessagesAndEveryTimerSettles() {
        let chat = ChatHarness(configuration: ChatConfiguration(maxMessagesPerChat: 50)).loaded()
        chat.send(.openChat(contact: "John"))
        // Spread out, so the manual scheduler (a linear scan per timer) never holds many timers at once.
        for batch in 0..<20 {
            let events = (0..<50).map { ChatAppEvent.intent(.send(text: "message \(batch * 50 + $0)")) }
            chat.sendEvents(events)
            chat.advance(seconds: 2)
        }
        chat.advance(seconds: 600)
        let john = chat.conversation()
        #expect(john?.messages.count == 50)
        #expect(chat.pendingTimerCount == 0)
        let users = john?.messages.filter { $0.sentBy == .user } ?? []
        #expect(users.allSatisfy { $0.sendStatus != "Sending..." })
        #expect(users.last?.message == "message 999")
    }
}
