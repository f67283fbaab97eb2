import Foundation
import TestSupport
import Testing
import ViewHostAPI
import ViewModelCore

import ChatAPI
@testable import ChatFeature

/// The simulated other side through a whole session, on a manual clock: texts, delays, read receipts, pushes.
struct BotConversationTests {
    /// One bot message as it reached the app.
    struct Reply {
        let text: String
        let seconds: Double
    }

    /// The bot's messages in John's chat (after his first one), each with the time its `received` was applied.
    private func replies(in chat: ChatHarness, contact: String = "John") -> [Reply] {
        let times = chat.log.filter { $0.event == "received" && $0.summary.hasPrefix("contact=\(contact) ") }
            .map { chat.seconds(of: $0) }
        let texts =
            chat.snapshot.conversations[contact]?.messages.filter { $0.sentBy == .other }.dropFirst()
            .map(\.message) ?? []
        return zip(texts, times).map { Reply(text: $0, seconds: $1) }
    }

    /// Opens John, says hi, and answers every bot message at once until `count` replies came (or 300 s passed).
    private func conversation(seed: UInt64, replies count: Int) -> ChatHarness {
        let chat = ChatHarness(seed: seed).loaded()
        chat.send(.openChat(contact: "John"), .send(text: "Hi", contact: nil))
        var seen = 0
        for _ in 0..<600 where seen < count {
            chat.advance(seconds: 0.5)
            let now = replies(in: chat).count
            if now > seen {
                seen = now
                chat.send(.send(text: "ok", contact: nil))
            }
        }
        return chat
    }

    @Test(arguments: UInt64(1)...8)
    func wholeConversationIsGreetingQuestionThreeCommentsThenANewSession(seed: UInt64) {
        let chat = conversation(seed: seed, replies: 6)
        let replies = replies(in: chat)
        #expect(replies.count == 6)
        guard replies.count == 6 else { return }
        #expect(BotReplies.greetings.contains(replies[0].text))
        #expect(BotReplies.questions.contains(replies[1].text))
        #expect(Set(replies[2...4].map(\.text)).count == 3)
        #expect(replies[2...4].allSatisfy { BotReplies.comments.contains($0.text) })
        #expect(BotReplies.greetings.contains(replies[5].text))  // the sixth starts a new session
        // "Hi" is sent at 2.0 s, read 1.5–4.5 s later, then replied to 5–14 s after that.
        #expect((6.5...18.5).contains(replies[0].seconds - 2))
        for index in 1...4 { #expect((5.0...14.0).contains(replies[index].seconds - replies[index - 1].seconds)) }
        // The chat stays open: every reply came through the web socket and the user's messages were all read.
        #expect(chat.snapshot.notifications.isEmpty)
        chat.advance(seconds: 10)
        let mine = chat.conversation()?.messages.filter { $0.sentBy == .user } ?? []
        #expect(mine.dropLast().allSatisfy { $0.readStatus == .read })
        #expect(chat.snapshot.badge == 0)
    }

    @Test(arguments: UInt64(1)...12)
    func sessionStopsOnceThirtySecondsPassedSinceTheUsersMessage(seed: UInt64) {
        let chat = ChatHarness(seed: seed).loaded()
        chat.send(.openChat(contact: "John"), .send(text: "Hi", contact: nil))
        chat.advance(seconds: 300)
        let replies = replies(in: chat)
        let lastMessage = 2.0  // when "Hi" became sent
        #expect(!replies.isEmpty && replies.count <= 5)
        // Each reply after the first was planned when the one before it arrived, inside the 30 s window.
        for index in replies.indices.dropFirst() { #expect(replies[index - 1].seconds < lastMessage + 30) }
        if let last = replies.last, replies.count < 5 { #expect(last.seconds >= lastMessage + 30) }
        #expect(chat.pendingTimerCount == 0)
        #expect(chat.conversation()?.messages[1].readStatus == .read)
    }

    @Test func readReceiptsOnlyWhileTheChatIsOpen() {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"), .send(text: "Hi", contact: nil), .back)
        chat.advance(seconds: 60)
        chat.send(.openChat(contact: "John"))
        #expect(chat.conversation()?.messages[1].message == "Hi")
        #expect(chat.conversation()?.messages[1].readStatus == .unread)
        #expect(!chat.log.contains { $0.event == "otherRead" })
    }

    @Test func repliesArriveAsPushNotificationsWhenTheChatIsNotOpen() throws {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"), .send(text: "Hi", contact: nil), .back)
        chat.advance(seconds: 60)
        let notifications = chat.snapshot.notifications
        #expect(notifications.count >= 2)
        let first = try #require(notifications.first)
        #expect(first.id == "n1" && first.title == "John" && first.shown)
        #expect(BotReplies.greetings.contains(first.body))
        #expect(first.badge == 0)  // John's first message was read when the chat opened
        #expect(notifications[1].badge == 1)
        #expect(BotReplies.questions.contains(notifications[1].body))
        #expect(chat.snapshot.badge == notifications.count)
        #expect(chat.snapshot.chatList.chats.first?.unreadMessageCount == notifications.count)
        let pushed = chat.log.filter { $0.event == "pushDelivered" }
        let delivery = try #require(pushed.first)
        let reply = try #require(chat.log.first { $0.event == "replyDue" })
        #expect(abs(chat.seconds(of: delivery) - chat.seconds(of: reply) - 0.1) < 0.000_1)
        #expect(first.subtitle == DateRenderer(timeZone: .gmt).string(from: reply.at))
        #expect(chat.log.first { $0.causedBy == delivery.seq }?.event == "received")
    }

    @Test func afterResigningTheOpenChatsRepliesAndGoodbyeComeAsHiddenPushes() {
        let chat = ChatHarness(seed: 5).loaded()
        chat.send(.openChat(contact: "John"), .send(text: "Hi", contact: nil))
        chat.advance(seconds: 1.5)
        chat.send(.appResignActive)
        chat.advance(seconds: 120)
        let notifications = chat.snapshot.notifications
        #expect(notifications.count == 2)  // the goodbye, and the one reply the loop sends before it stops
        #expect(notifications.allSatisfy { !$0.shown })
        #expect(Set(notifications.map { BotReplies.salutes.contains($0.body) }) == [true, false])
        #expect(notifications.contains { BotReplies.greetings.contains($0.body) })
        #expect(chat.conversation()?.messages[1].readStatus == .unread)  // read receipts need the web socket
    }

    @Test(arguments: UInt64(1)...6)
    func goodbyeComesThreeToTwelveSecondsAfterResigningDatedWhenItArrives(seed: UInt64) throws {
        let chat = ChatHarness(seed: seed).loaded()
        chat.send(.openChat(contact: "John"), .send(text: "Hi", contact: nil), .back)
        chat.advance(seconds: 2)
        chat.send(.appResignActive)
        chat.advance(seconds: 60)
        let goodbye = try #require(chat.log.first { $0.event == "goodbyeDue" })
        #expect((5.5...14.5).contains(chat.seconds(of: goodbye)))
        let banner = try #require(chat.snapshot.notifications.first { BotReplies.salutes.contains($0.body) })
        #expect(banner.subtitle == DateRenderer(timeZone: .gmt).string(from: goodbye.at))
        #expect(banner.shown)
    }

    @Test func noGoodbyeWithoutAReplySession() {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"), .appResignActive)
        #expect(chat.pendingTimerCount == 0)
    }

    @Test func appBecomeActiveDoesNothingSoRepliesStayPushesUntilTheChatIsEnteredAgainQuirkKept() {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"), .appResignActive)
        let version = chat.version
        chat.send(.appBecomeActive)
        #expect(chat.version == version)
        chat.send(.send(text: "still there?", contact: nil))
        chat.advance(seconds: 60)
        #expect(chat.snapshot.notifications.count == 1)  // one push, then the loop stops
        #expect(chat.conversation()?.messages[1].readStatus == .unread)
        chat.send(.back, .openChat(contact: "John"), .send(text: "back", contact: nil))
        chat.advance(seconds: 6.5)
        let mine = chat.conversation()?.messages.filter { $0.sentBy == .user }
        #expect(mine?.last?.readStatus == .read)
    }

    @Test func notificationTapOpensTheChatAndClearsItsBannersAndCanStackDuplicatesQuirkKept() {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"), .send(text: "Hi", contact: nil), .back)
        chat.advance(seconds: 25)
        #expect(!chat.snapshot.notifications.isEmpty)
        chat.send(.notificationTap(contact: "John"))
        #expect(chat.snapshot.navigation == [.chatList, .chat(contact: "John")])
        #expect(chat.snapshot.notifications.isEmpty)
        #expect(chat.snapshot.badge == 0)
        chat.send(.notificationTap(contact: "John"))
        #expect(chat.snapshot.navigation == [.chatList, .chat(contact: "John"), .chat(contact: "John")])
    }

    @Test func pushFromAnotherContactIsShownWhileAChatIsOpen() throws {
        let chat = ChatHarness().loaded()
        chat.send(.create(contact: "Ann"))
        chat.advance(seconds: 0.5)
        chat.send(.send(text: "Hi Ann", contact: nil), .back, .openChat(contact: "John"))
        chat.advance(seconds: 25)
        let banner = try #require(chat.snapshot.notifications.first)
        #expect(banner.title == "Ann")
        #expect(banner.shown)
    }

    @Test func notificationTapWithoutAChatDoesNothing() {
        let chat = ChatHarness().loaded()
        let version = chat.version
        chat.send(.notificationTap(contact: "Zed"))
        #expect(chat.version == version)
    }

    @Test func onlyTheNewestNotificationsAreKept() {
        let chat = ChatHarness(configuration: ChatConfiguration(maxNotifications: 1)).loaded()
        chat.send(.openChat(contact: "John"), .send(text: "Hi", contact: nil), .back)
        chat.advance(seconds: 60)
        let delivered = chat.log.filter { $0.event == "pushDelivered" }.count
        #expect(delivered >= 2)
        #expect(chat.snapshot.notifications.map(\.id) == ["n\(delivered)"])
    }

    @Test func commentPoolBelongsToOneSessionQuirkFixed() {
        let texts = { (seed: UInt64) in
            self.replies(in: self.conversation(seed: seed, replies: 12)).map(\.text)
        }
        let first = texts(5)
        _ = texts(9)
        #expect(texts(5) == first)
    }

    @Test func seededSessionsReplayExactly() {
        let first = conversation(seed: 42, replies: 6)
        let second = conversation(seed: 42, replies: 6)
        #expect(first.recorder.snapshots == second.recorder.snapshots)
        #expect(first.log.map(\.event) == second.log.map(\.event))
        #expect(first.log.map(\.at) == second.log.map(\.at))
    }

    @Test func botReplysCausedByChainLeadsBackToTheUsersSend() throws {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"), .send(text: "Hi", contact: nil))
        chat.advance(seconds: 20)
        chat.send(.back)
        chat.advance(seconds: 20)
        let log = chat.log
        let bySequence = Dictionary(uniqueKeysWithValues: log.map { ($0.seq, $0) })
        func chain(from entry: LogEntry) -> [String] {
            var names = [entry.event]
            var current = entry
            while let cause = current.causedBy.flatMap({ bySequence[$0] }) {
                names.append(cause.event)
                current = cause
            }
            return names
        }
        let live = try #require(log.first { $0.event == "received" })
        #expect(live.source == .simulator)
        #expect(chain(from: live) == ["received", "replyDue", "readReceiptDue", "sent", "send"])
        let pushed = try #require(log.last { $0.event == "received" })
        #expect(chain(from: pushed).prefix(3) == ["received", "pushDelivered", "replyDue"])
        #expect(chain(from: pushed).suffix(3) == ["readReceiptDue", "sent", "send"])
    }
}
