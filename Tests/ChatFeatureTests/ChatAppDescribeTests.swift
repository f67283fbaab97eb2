import Foundation
import Testing
import ViewHostAPI
import ViewModelCore

import ChatAPI
@testable import ChatFeature

struct ChatAppDescribeTests {
    @Test func clientIntentsUseClientNamesWithShortSummaries() {
        #expect(
            ChatApp.describe(.intent(.send(text: "Hi", contact: "John")))
                == EventDescription(
                    name: "send", summary: "contact=John text=\"Hi\""))
        #expect(ChatApp.describe(.intent(.send(text: "Hi", contact: nil))).summary == "text=\"Hi\"")
        #expect(ChatApp.describe(.intent(.create(contact: "Ann"))).summary == "contact=\"Ann\"")
        #expect(ChatApp.describe(.intent(.appear)).name == "appear")
        #expect(ChatApp.describe(.intent(.notificationTap(contact: "John"))).name == "notificationTap")
    }

    @Test func internalEventsUseTheOriginalsNames() {
        let message = Message.user(2)
        let names = [
            ChatAppEvent.chat(.applicationInitialized), .chat(.loaded(chats: [.john])),
            .chat(.creatingChat(contact: "A")),
            .chat(.created(chat: .john)), .chat(.createChatFailed(reason: "r")),
            .message(.sending(message: message, contact: "John", previousMessages: .empty)),
            .message(.sent(message: message, contact: "John")),
            .message(.failedSending(message: message, contact: "John", reason: "r")),
            .message(.received(message: message, contact: "John")), .message(.userRead(messagesSentBy: "John")),
            .message(.otherRead(yourMessage: message, reader: "John")),
        ].map { ChatApp.describe($0).name }
        #expect(
            names == [
                "applicationInitialized", "loaded", "creatingChat", "created", "createChatFailed", "sending", "sent",
                "failedSending", "received", "userRead", "otherRead",
            ])
        #expect(ChatApp.describe(.message(.sent(message: message, contact: "John"))).summary == "contact=John id=m2")
    }

    @Test func summariesNeverGrowWithThePayload() {
        let huge = String(repeating: "é", count: 100_000)
        let description = ChatApp.describe(.intent(.send(text: huge, contact: huge)))
        #expect(description.summary.count < 100)
    }
}
