import Foundation
import Testing
import ViewModelCore

@testable import ChatFeature

struct StubMessageSenderTests {
    let userMessage = Message.user(2, state: .sent)

    @Test func repliesStartWithAGreetingThenAQuestion() {
        let rig = SimulationRig()
        var random = RandomSource.seeded(3)
        for _ in 0..<20 {
            #expect(BotReplies.greetings.contains(rig.sender.response(for: 0, random: &random)))
            #expect(BotReplies.questions.contains(rig.sender.response(for: 1, random: &random)))
        }
    }

    @Test func commentsRepeatOnlyAfterAllWereUsedQuirkFixed() {
        let rig = SimulationRig()
        var random = RandomSource.seeded(11)
        let drawn = (0..<20).map { _ in rig.sender.response(for: 2, random: &random) }
        for round in 0..<4 {
            #expect(Set(drawn[round * 5..<round * 5 + 5]) == Set(BotReplies.comments))
        }
    }

    @Test func readReceiptIsDueOneAndAHalfToFourAndAHalfSecondsLater() {
        var delays = Set<Duration>()
        for seed in UInt64(0)..<64 {
            let rig = SimulationRig()
            var context = SimulationRig.context(seed: seed)
            rig.sender.triggerResponses(
                in: SimulatedConversation(with: "John", now: .fixture), by: userMessage, context: &context)
            let scheduled = context.scheduledEvents
            #expect(scheduled.count == 1)
            #expect(
                scheduled.first?.event
                    == .simulator(
                        .readReceiptDue(message: userMessage, contact: "John", startsReplies: true)))
            delays.formUnion(scheduled.map(\.delay))
        }
        #expect(delays == [.milliseconds(1_500), .milliseconds(2_500), .milliseconds(3_500), .milliseconds(4_500)])
    }

    @Test func aRunningSessionOnlyReadsTheNewMessage() {
        let rig = SimulationRig()
        let conversation = SimulatedConversation(with: "John", now: .fixture)
        var context = SimulationRig.context()
        rig.sender.triggerResponses(in: conversation, by: userMessage, context: &context)
        rig.sender.triggerResponses(in: conversation, by: .user(3), context: &context)
        #expect(
            context.scheduledEvents.last?.event
                == .simulator(
                    .readReceiptDue(message: .user(3), contact: "John", startsReplies: false)))
    }

    @Test func readReceiptReadsOnlyWhileTheChatIsOpen() {
        let rig = SimulationRig()
        let conversation = SimulatedConversation(with: "John", now: .fixture)
        var open = SimulationRig.context()
        rig.sender.readReceiptDue(message: userMessage, of: conversation, startsReplies: false, context: &open)
        #expect(open.routedEvents.map(\.event) == [.message(.otherRead(yourMessage: userMessage, reader: "John"))])
        for leave in [conversation.leftChatViewController, conversation.leftApp] {
            leave()
            var closed = SimulationRig.context()
            rig.sender.readReceiptDue(message: userMessage, of: conversation, startsReplies: false, context: &closed)
            #expect(closed.routedEvents.isEmpty)
        }
    }

    @Test func nextReplyIsDueFiveToFourteenSecondsLater() {
        var delays = Set<Duration>()
        for seed in UInt64(0)..<128 {
            let rig = SimulationRig()
            var context = SimulationRig.context(seed: seed)
            rig.sender.readReceiptDue(
                message: userMessage, of: SimulatedConversation(with: "John", now: .fixture), startsReplies: true,
                context: &context)
            #expect(context.scheduledEvents.map(\.event) == [.simulator(.replyDue(contact: "John", responsesGiven: 0))])
            delays.formUnion(context.scheduledEvents.map(\.delay))
        }
        #expect(delays == Set((5...14).map { Duration.seconds($0) }))
    }

    @Test func noReplyIsPlannedThirtySecondsAfterTheUsersLastMessage() {
        let rig = SimulationRig()
        let conversation = SimulatedConversation(with: "John", now: .fixture)
        var context = SimulationRig.context(now: .fixture.addingTimeInterval(30))
        rig.sender.readReceiptDue(message: userMessage, of: conversation, startsReplies: true, context: &context)
        #expect(context.scheduledEvents.isEmpty)
    }

    @Test func theFifthReplyIsTheLast() {
        let rig = SimulationRig()
        let conversation = SimulatedConversation(with: "John", now: .fixture)
        var context = SimulationRig.context()
        rig.sender.replyDue(in: conversation, responsesGiven: 3, context: &context)
        #expect(context.scheduledEvents.map(\.event) == [.simulator(.replyDue(contact: "John", responsesGiven: 4))])
        var last = SimulationRig.context()
        rig.sender.replyDue(in: conversation, responsesGiven: 4, context: &last)
        #expect(last.scheduledEvents.isEmpty)
        #expect(last.routedEvents.count == 1)
    }

    @Test func replyGoesThroughTheWebSocketWhileOpenElseThroughPush() throws {
        let rig = SimulationRig()
        let conversation = SimulatedConversation(with: "John", now: .fixture)
        var open = SimulationRig.context()
        rig.sender.replyDue(in: conversation, responsesGiven: 0, context: &open)
        guard case .message(.received(let message, "John")) = open.routedEvents.first?.event else {
            Issue.record("expected a web-socket reply, got \(open.routedEvents)")
            return
        }
        #expect(message.sendDate == .fixture && message.state == .sent)
        conversation.leftChatViewController()
        var left = SimulationRig.context()
        rig.sender.replyDue(in: conversation, responsesGiven: 0, context: &left)
        #expect(left.routedEvents.isEmpty)
        let push = try #require(left.scheduledEvents.first)
        #expect(push.delay == .milliseconds(100))
        guard case .simulator(.pushDelivered(let notification)) = push.event else {
            Issue.record("expected a push, got \(push.event)")
            return
        }
        #expect(notification.title == "John" && notification.subtitle == "23-11-2026 14:00")
        #expect(notification.badge == 1)  // John's first message is unread
        #expect(BotReplies.greetings.contains(notification.body))
        #expect(left.scheduledEvents.count == 2)  // and the next reply
    }

    @Test func afterTheAppClosedTheLoopStopsAfterOneMorePush() {
        let rig = SimulationRig()
        let conversation = SimulatedConversation(with: "John", now: .fixture)
        conversation.leftApp()
        var context = SimulationRig.context()
        rig.sender.replyDue(in: conversation, responsesGiven: 0, context: &context)
        #expect(context.scheduledEvents.count == 1)
        #expect(context.scheduledEvents.first?.delay == .milliseconds(100))
    }

    @Test func goodbyesOnlyFromActiveContactsThatHeardFromTheUserInTheLastThirtySeconds() throws {
        let rig = SimulationRig(chats: [.john, .make(contact: "Ann", messages: [])])
        let recent = SimulatedConversation(with: "John", now: .fixture.addingTimeInterval(5))
        let stale = SimulatedConversation(with: "Ann", now: .fixture)
        var start = SimulationRig.context()
        rig.sender.triggerResponses(in: recent, by: userMessage, context: &start)
        rig.sender.triggerResponses(in: stale, by: userMessage, context: &start)
        let now = Date.fixture.addingTimeInterval(30.5)
        var context = SimulationRig.context(now: now, seed: 4)
        rig.sender.sendGoodbyes(context: &context)
        #expect(context.scheduledEvents.count == 1)
        let goodbye = try #require(context.scheduledEvents.first)
        guard case .simulator(.goodbyeDue(let notification)) = goodbye.event else {
            Issue.record("expected a goodbye, got \(goodbye.event)")
            return
        }
        let seconds = Int(goodbye.delay.components.seconds)
        #expect((3...12).contains(seconds))
        #expect(notification.title == "John")
        #expect(BotReplies.salutes.contains(notification.body))
        #expect(
            notification.subtitle == DateRenderer(timeZone: .gmt).string(from: now.addingTimeInterval(Double(seconds))))
        var again = SimulationRig.context(now: now)
        rig.sender.sendGoodbyes(context: &again)
        #expect(again.scheduledEvents.isEmpty)  // the active list was cleared
    }
}
