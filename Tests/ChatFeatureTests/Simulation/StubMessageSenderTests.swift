import Foundation
import Testing
import ViewHostAPI
import ViewModelCore

import ChatAPI
@testable import ChatFeature

struct StubMessageSenderTests {
    let userMessage = Message.user(2, state: .sent)

    @Test func repliesStartWithAGreetingThenAQuestion() {
        var simulation = SimulationState()
        var random = RandomSource.seeded(3)
        for _ in 0..<20 {
            #expect(BotReplies.greetings.contains(StubMessageSender.response(for: 0, simulation: &simulation, random: &random)))
            #expect(BotReplies.questions.contains(StubMessageSender.response(for: 1, simulation: &simulation, random: &random)))
        }
    }

    @Test func commentsRepeatOnlyAfterAllWereUsedQuirkFixed() {
        var simulation = SimulationState()
        var random = RandomSource.seeded(11)
        let drawn = (0..<20).map { _ in StubMessageSender.response(for: 2, simulation: &simulation, random: &random) }
        for round in 0..<4 {
            #expect(Set(drawn[round * 5..<round * 5 + 5]) == Set(BotReplies.comments))
        }
    }

    @Test func readReceiptIsDueOneAndAHalfToFourAndAHalfSecondsLater() {
        var delays = Set<Duration>()
        for seed in UInt64(0)..<64 {
            var rig = SimulationRig()
            var context = SimulationRig.context(seed: seed)
            StubMessageSender.triggerResponses(to: "John", by: userMessage, state: &rig.state, context: &context)
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
        var rig = SimulationRig()
        var context = SimulationRig.context()
        StubMessageSender.triggerResponses(to: "John", by: userMessage, state: &rig.state, context: &context)
        StubMessageSender.triggerResponses(to: "John", by: .user(3), state: &rig.state, context: &context)
        #expect(
            context.scheduledEvents.last?.event
                == .simulator(
                    .readReceiptDue(message: .user(3), contact: "John", startsReplies: false)))
    }

    @Test func readReceiptReadsOnlyWhileTheChatIsOpen() {
        var rig = SimulationRig()
        var open = SimulationRig.context()
        StubMessageSender.readReceiptDue(message: userMessage, of: "John", startsReplies: false, state: &rig.state, context: &open)
        #expect(open.routedEvents.map(\.event) == [.message(.otherRead(yourMessage: userMessage, reader: "John"))])
        for leave in [SimulatedConversation.State.inApp, .appClosed] {
            rig.set("John", to: leave)
            var closed = SimulationRig.context()
            StubMessageSender.readReceiptDue(message: userMessage, of: "John", startsReplies: false, state: &rig.state, context: &closed)
            #expect(closed.routedEvents.isEmpty)
        }
    }

    @Test func nextReplyIsDueFiveToFourteenSecondsLater() {
        var delays = Set<Duration>()
        for seed in UInt64(0)..<128 {
            var rig = SimulationRig()
            var context = SimulationRig.context(seed: seed)
            StubMessageSender.readReceiptDue(message: userMessage, of: "John", startsReplies: true, state: &rig.state, context: &context)
            #expect(context.scheduledEvents.map(\.event) == [.simulator(.replyDue(contact: "John", responsesGiven: 0))])
            delays.formUnion(context.scheduledEvents.map(\.delay))
        }
        #expect(delays == Set((5...14).map { Duration.seconds($0) }))
    }

    @Test func noReplyIsPlannedThirtySecondsAfterTheUsersLastMessage() {
        var rig = SimulationRig()
        var context = SimulationRig.context(now: .fixture.addingTimeInterval(30))
        StubMessageSender.readReceiptDue(message: userMessage, of: "John", startsReplies: true, state: &rig.state, context: &context)
        #expect(context.scheduledEvents.isEmpty)
    }

    @Test func theFifthReplyIsTheLast() {
        var rig = SimulationRig()
        var context = SimulationRig.context()
        StubMessageSender.replyDue(in: "John", responsesGiven: 3, state: &rig.state, context: &context)
        #expect(context.scheduledEvents.map(\.event) == [.simulator(.replyDue(contact: "John", responsesGiven: 4))])
        var last = SimulationRig.context()
        StubMessageSender.replyDue(in: "John", responsesGiven: 4, state: &rig.state, context: &last)
        #expect(last.scheduledEvents.isEmpty)
        #expect(last.routedEvents.count == 1)
    }

    @Test func replyGoesThroughTheWebSocketWhileOpenElseThroughPush() throws {
        var rig = SimulationRig()
        var open = SimulationRig.context()
        StubMessageSender.replyDue(in: "John", responsesGiven: 0, state: &rig.state, context: &open)
        guard case .message(.received(let message, "John")) = open.routedEvents.first?.event else {
            Issue.record("expected a web-socket reply, got \(open.routedEvents)")
            return
        }
        #expect(message.sendDate == .fixture && message.state == .sent)
        rig.set("John", to: .inApp)
        var left = SimulationRig.context()
        StubMessageSender.replyDue(in: "John", responsesGiven: 0, state: &rig.state, context: &left)
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
        var rig = SimulationRig()
        rig.set("John", to: .appClosed)
        var context = SimulationRig.context()
        StubMessageSender.replyDue(in: "John", responsesGiven: 0, state: &rig.state, context: &context)
        #expect(context.scheduledEvents.count == 1)
        #expect(context.scheduledEvents.first?.delay == .milliseconds(100))
    }

    @Test func goodbyesOnlyFromActiveContactsThatHeardFromTheUserInTheLastThirtySeconds() throws {
        var rig = SimulationRig(chats: [.john, .make(contact: "Ann", messages: [])])
        rig.state.simulation.conversations["John"]?.lastReceivedMessage = .fixture.addingTimeInterval(5)
        var start = SimulationRig.context()
        StubMessageSender.triggerResponses(to: "John", by: userMessage, state: &rig.state, context: &start)
        StubMessageSender.triggerResponses(to: "Ann", by: userMessage, state: &rig.state, context: &start)
        let now = Date.fixture.addingTimeInterval(30.5)
        var context = SimulationRig.context(now: now, seed: 4)
        StubMessageSender.sendGoodbyes(state: &rig.state, context: &context)
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
        StubMessageSender.sendGoodbyes(state: &rig.state, context: &again)
        #expect(again.scheduledEvents.isEmpty)  // the active list was cleared
    }
}
