import ViewHost
import Foundation
import HTTPCore
import Testing
import TestSupport
import ChatAPI
import LoginAPI
import PersonAPI
import WeatherAPI
import ViewHostAPI

/// The seed's chat app (reference/seed-behaviour.md §1) walked through over HTTP, as a front-end would, with
/// every simulated delay driven by the manual scheduler: loading, John's greeting, reading, sending, the bot's
/// read receipt and reply, creating a chat, going back, goodbyes through push, and tapping a push.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ChatWalkthroughHTTPTests {
    static let greetings = ["Hi!", "Hey", "Long time no see", "Hello", "So you're here too? 😎"]
    static let salutes = ["OK, bye", "Sure, see ya 👍", "ttyl 😎", "Nice talking to you again"]

    @Test func fullWalkthrough() async throws {
        try await TestApp.run { app in
            let session = try await app.createSession()

            // A new session shows the loading list (the quirk: the empty text is not hidden under the spinner).
            var chat = try await app.snapshot(session)
            #expect(chat.screens == ["chatList"])
            #expect(chat["chatList"]["showSpinner"].bool == true)
            #expect(chat["chatList"]["hideChats"].bool == true)
            #expect(chat["chatList"]["hideEmptyMessage"].bool == false)
            #expect(chat["chatList"]["chats"].array.isEmpty)
            #expect(chat["badge"].int == 0)

            // 0.5 s later John is there with one unread message, sent 500 s before the load.
            app.advance(by: .milliseconds(500))
            chat = try await app.snapshot(session)
            let john = chat["chatList"]["chats"][0]
            #expect(chat["chatList"]["showSpinner"].bool == false)
            #expect(chat["chatList"]["hideChats"].bool == false)
            #expect(chat["chatList"]["hideEmptyMessage"].bool == true)
            #expect(john["contact"].string == "John")
            #expect(john["message"].string == "Hi, you're here too?")
            #expect(john["lastMessageDate"].string == "23-11-2026 13:51")
            #expect(john["unreadMessageCount"].int == 1)
            #expect(chat["badge"].int == 1)

            // Opening John's chat shows its messages, which marks them read.
            try await app.send(session, "chat", #"{"type":"openChat","contact":"John"}"#)
            chat = try await app.snapshot(session)
            #expect(chat.screens == ["chatList", "chat:John"])
            #expect(chat["badge"].int == 0)
            #expect(chat["chatList"]["chats"][0]["unreadMessageCount"].int == 0)
            let conversation = chat["conversations"]["John"]
            #expect(conversation["title"].string == "John")
            #expect(conversation["messages"].array.map { $0["sentBy"].string } == ["other"])
            #expect(conversation["actions"]["send"]["body"]["text"].string == "{text}")
            #expect(conversation["actions"]["send"]["href"].string == session.path("chat/events"))
            #expect(chat["actions"]["back"]["enabled"].bool == true)

            // Sending: "Sending..." at once, the date once it is sent 1.5 s later.
            try await app.send(session, "chat", #"{"type":"send","text":"Hey John"}"#)
            chat = try await app.snapshot(session)
            var mine = try #require(chat.messages(of: "John").last)
            #expect(mine["sentBy"].string == "user")
            #expect(mine["message"].string == "Hey John")
            #expect(mine["sendStatus"].string == "Sending...")
            #expect(chat["conversations"]["John"]["shouldBeBusy"].bool == true)
            app.advance(by: .milliseconds(1500))
            chat = try await app.snapshot(session)
            mine = try #require(chat.messages(of: "John").last)
            #expect(mine["sendStatus"].string == "23-11-2026 14:00")
            #expect(mine["readStatus"].string == "")
            #expect(chat["conversations"]["John"]["shouldBeBusy"].bool == false)

            // The bot reads it 1.5–4.5 s after it was sent, then greets 5–14 s after reading.
            var receiptAfter: Int?
            var reply: (text: String, after: Int)?
            for second in 1...25 where receiptAfter == nil || reply == nil {
                app.advance(by: .seconds(1))
                let messages = try await app.snapshot(session).messages(of: "John")
                if receiptAfter == nil, messages.first(where: { $0["message"].string == "Hey John" })?["readStatus"].string == "✓" {
                    receiptAfter = second
                }
                if reply == nil, messages.count > 2, let text = messages.last?["message"].string,
                    messages.last?["sentBy"].string == "other"
                {
                    reply = (text, second)
                }
            }
            let receipt = try #require(receiptAfter, "no read receipt within 25 s")
            let greeting = try #require(reply, "no reply within 25 s")
            #expect((2...5).contains(receipt), "seen at whole seconds after sent: receipt at 1.5–4.5 s")
            #expect(Self.greetings.contains(greeting.text))
            #expect((receipt + 5...receipt + 14).contains(greeting.after), "the reply comes 5–14 s after the receipt")
            #expect(try await app.snapshot(session)["badge"].int == 0, "a reply into the open chat is read at once")

            // Back to the list, then create Ann: spinner and a disabled create until the "server" answers.
            try await app.send(session, "chat", #"[{"type":"back"},{"type":"addChat"}]"#)
            chat = try await app.snapshot(session)
            #expect(chat.screens == ["chatList", "createChat"])
            #expect(chat["createChat"]["title"].string == "Create Chat")
            #expect(chat["createChat"]["enableCreate"].bool == true)
            #expect(chat["createChat"]["actions"]["create"]["body"]["contact"].string == "{contact}")
            try await app.send(session, "chat", #"{"type":"create","contact":"Ann"}"#)
            chat = try await app.snapshot(session)
            #expect(chat["createChat"]["showSpinner"].bool == true)
            #expect(chat["createChat"]["enableCreate"].bool == false)
            #expect(chat["createChat"]["actions"]["create"]["enabled"].bool == false)
            app.advance(by: .milliseconds(500))
            chat = try await app.snapshot(session)
            #expect(chat.screens == ["chatList", "chat:Ann"], "the chat screen replaces Create Chat")
            #expect(chat["createChat"].isNull)
            #expect(chat["conversations"]["Ann"]["shouldShowEmpty"].bool == true)

            try await app.send(session, "chat", #"{"type":"back"}"#)
            chat = try await app.snapshot(session)
            #expect(chat.screens == ["chatList"])
            #expect(chat["chatList"]["chats"].array.compactMap { $0["contact"].string } == ["John", "Ann"])

            // Leaving the app: John says goodbye through push 3–12 s later.
            try await app.send(session, "chat", #"{"type":"appResignActive"}"#)
            #expect(try await app.snapshot(session)["notifications"].array.allSatisfy { !Self.salutes.contains($0["body"].string ?? "") })
            var goodbye: JSON?
            for _ in 1...13 where goodbye == nil {
                app.advance(by: .seconds(1))
                goodbye = try await app.snapshot(session)["notifications"].array
                    .first { Self.salutes.contains($0["body"].string ?? "") }
            }
            let banner = try #require(goodbye, "no goodbye within 13 s")
            #expect(banner["title"].string == "John")
            #expect(banner["shown"].bool == true, "no open chat hides it")
            #expect(banner["actions"]["tap"]["body"]["contact"].string == "John")

            // Tapping it opens John's chat, which holds the goodbye.
            try await app.send(session, "chat", #"{"type":"notificationTap","contact":"John"}"#)
            chat = try await app.snapshot(session)
            #expect(chat.screens == ["chatList", "chat:John"])
            #expect(chat.messages(of: "John").contains { $0["message"].string == banner["body"].string })
            #expect(chat["notifications"].array.allSatisfy { $0["title"].string != "John" })
        }
    }

    @Test func walkthroughScriptExistsAndIsExecutable() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/walkthrough.sh").path
        #expect(FileManager.default.isExecutableFile(atPath: script))
    }
}
