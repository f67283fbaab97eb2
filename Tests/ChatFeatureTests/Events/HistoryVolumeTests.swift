import Foundation
import TestSupport
import Testing
import ViewHostAPI
import ViewModelCore

import ChatAPI
@testable import ChatFeature

/// Many events in one session stay bounded by the history cap and stay cheap (the send benchmark's shape).
struct HistoryVolumeTests {
    /// A second of CPU in a debug build: on a thread of its own, off the cooperative pool that parallel tests'
    /// in-process servers need.
    @Test func thousandsOfSendsKeepTheNewestMessagesAndEveryTimerSettles() async throws {
        let outcome = try await OffThread.run(stackSize: nil) {
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
            let users = john?.messages.filter { $0.sentBy == .user } ?? []
            return (
                count: john?.messages.count, pendingTimers: chat.pendingTimerCount,
                allSent: users.allSatisfy { $0.sendStatus != "Sending..." }, last: users.last?.message
            )
        }
        #expect(outcome.count == 50)
        #expect(outcome.pendingTimers == 0)
        #expect(outcome.allSent)
        #expect(outcome.last == "message 999")
    }
}
