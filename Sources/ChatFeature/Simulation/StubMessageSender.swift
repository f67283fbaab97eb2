import Foundation
import ViewModelCore

/// The bot (seed 001, `Stubs/StubMessageSender.swift`), with the original's MVVM numbers: read receipts after
/// 1.5 + {0…3} s, up to 5 replies 5 + {0…9} s apart while the user wrote in the last 30 s, goodbyes 3 + {0…9} s
/// after the app resigns active. Every delay is a session timer and every choice a draw from the session's
/// random source, so a session replays exactly.
enum StubMessageSender {
    /// The user's message reached the server: the contact reads it, and starts a reply session unless one runs
    /// (then the message only gets its read receipt; the session was kept alive by `lastReceivedMessage`).
    static func triggerResponses(
        to contact: String, by message: Message, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) {
        guard !state.simulation.activeConversations.contains(contact) else {
            read(message: message, of: contact, startsReplies: false, context: &context)
            return
        }
        state.simulation.activeConversations.append(contact)
        read(message: message, of: contact, startsReplies: true, context: &context)
    }

    /// Plans a goodbye push from every active contact that heard from the user in the last 30 s, then ends every
    /// reply session.
    static func sendGoodbyes(state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        for contact in state.simulation.activeConversations {
            planGoodbye(for: contact, state: &state, context: &context)
        }
        state.simulation.activeConversations = []
    }

    /// The read delay ran out: the message is read if the chat is open (else never), and a new session plans its
    /// first reply.
    static func readReceiptDue(
        message: Message, of contact: String, startsReplies: Bool, state: inout ChatState,
        context: inout FeatureContext<ChatApp>
    ) {
        if state.simulation.conversations[contact]?.state == .webSocket {
            ChatWebSocket.read(stub: message, reader: contact, context: &context)
        }
        if startsReplies { planResponse(by: contact, responsesGiven: 0, state: &state, context: &context) }
    }

    /// A reply is due: it goes through the web socket while the chat is open, else as a push notification; after
    /// the app closed the loop stops, otherwise it plans the next reply.
    static func replyDue(
        in contact: String, responsesGiven: Int, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) {
        guard let conversation = state.simulation.conversations[contact] else { return }
        let text = response(for: responsesGiven, simulation: &state.simulation, random: &context.random)
        switch conversation.state {
        case .webSocket:
            let message = state.model.makeMessage(
                sender: .other(name: contact), message: text, state: .sent, sendDate: context.now)
            ChatWebSocket.send(stub: message, context: &context)
        case .inApp, .appClosed:
            PushNotificationController.send(
                stub: text, from: contact, sendDate: context.now, state: state, context: &context)
        }
        if conversation.state == .appClosed { return }
        planResponse(by: contact, responsesGiven: responsesGiven + 1, state: &state, context: &context)
    }

    /// The text of reply number `responsesGiven`: a greeting, then a question, then comments without repeats
    /// until the pool is used up, when it is refilled from the used ones (quirk fixed: the original never emptied
    /// its used list, so each refill doubled the pool and comments repeated).
    static func response(for responsesGiven: Int, simulation: inout SimulationState, random: inout RandomSource)
        -> String
    {
        switch responsesGiven {
        case 0:
            return BotReplies.greetings.randomElement(using: &random) ?? BotReplies.greetingFallback
        case 1:
            return BotReplies.questions.randomElement(using: &random) ?? BotReplies.questionFallback
        default:
            if simulation.comments.isEmpty {
                simulation.comments = simulation.usedComments
                simulation.usedComments = []
            }
            guard !simulation.comments.isEmpty else { return BotReplies.commentFallback }
            let comment = simulation.comments.remove(at: Int.random(in: 0..<simulation.comments.count, using: &random))
            simulation.usedComments.append(comment)
            return BotReplies.comments[comment]
        }
    }

    private static func read(
        message: Message, of contact: String, startsReplies: Bool, context: inout FeatureContext<ChatApp>
    ) {
        let delay = 1_500 + 1_000 * Int.random(in: 0...3, using: &context.random)
        context.schedule(
            .simulator(.readReceiptDue(message: message, contact: contact, startsReplies: startsReplies)),
            after: .milliseconds(delay), source: .simulator)
    }

    /// Ends the session unless the user wrote in the last 30 s and fewer than 5 replies were given; otherwise the
    /// next reply is due in 5 + {0…9} s.
    private static func planResponse(
        by contact: String, responsesGiven: Int, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) {
        guard let conversation = state.simulation.conversations[contact],
            conversation.lastReceivedMessage.addingTimeInterval(30) > context.now, responsesGiven < 5
        else {
            state.simulation.activeConversations.removeAll { $0 == contact }
            return
        }
        let delay = 5 + Int.random(in: 0...9, using: &context.random)
        context.schedule(
            .simulator(.replyDue(contact: contact, responsesGiven: responsesGiven)), after: .seconds(delay),
            source: .simulator)
    }

    private static func planGoodbye(for contact: String, state: inout ChatState, context: inout FeatureContext<ChatApp>)
    {
        guard let conversation = state.simulation.conversations[contact],
            conversation.lastReceivedMessage.addingTimeInterval(30) > context.now
        else { return }
        let delay = 3 + Int.random(in: 0...9, using: &context.random)
        let salute = BotReplies.salutes.randomElement(using: &context.random) ?? BotReplies.saluteFallback
        PushNotificationController.send(
            stub: salute, from: contact, sendDate: context.now.addingTimeInterval(Double(delay)),
            after: .seconds(delay), isGoodbye: true, state: state, context: &context)
    }
}
