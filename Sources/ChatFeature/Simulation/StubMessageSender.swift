import Foundation
import ViewModelCore

/// The bot (seed 001, `Stubs/StubMessageSender.swift`), with the original's MVVM numbers: read receipts after
/// 1.5 + {0…3} s, up to 5 replies 5 + {0…9} s apart while the user wrote in the last 30 s, goodbyes 3 + {0…9} s
/// after the app resigns active. Every delay is a session timer and every choice comes from the session's random
/// source, so a seeded session replays exactly.
final class StubMessageSender {
    private let model: ChatModel
    private let pushController: PushNotificationController
    /// Contacts with a running reply session, in the order they started.
    private var activeConversations: [SimulatedConversation] = []
    /// The comment pool (quirk fixed: the original's was `static`, shared by every contact and every user).
    private var comments = BotReplies.comments
    private var usedComments: [String] = []

    init(model: ChatModel, pushController: PushNotificationController) {
        self.model = model
        self.pushController = pushController
    }

    /// The user's message reached the server: the contact reads it, and starts a reply session unless one runs
    /// (then the message only gets its read receipt; the session was kept alive by `lastReceivedMessage`).
    func triggerResponses(
        in conversation: SimulatedConversation, by message: Message, context: inout FeatureContext<ChatAppEvent>
    ) {
        guard !activeConversations.contains(where: { $0.contact == conversation.contact }) else {
            read(message: message, of: conversation, startsReplies: false, context: &context)
            return
        }
        activeConversations.append(conversation)
        read(message: message, of: conversation, startsReplies: true, context: &context)
    }

    /// Plans a goodbye push from every active contact that heard from the user in the last 30 s, then ends every
    /// reply session.
    func sendGoodbyes(context: inout FeatureContext<ChatAppEvent>) {
        for conversation in activeConversations { planGoodbye(for: conversation, context: &context) }
        activeConversations = []
    }

    /// The read delay ran out: the message is read if the chat is open (else never), and a new session plans its
    /// first reply.
    func readReceiptDue(
        message: Message, of conversation: SimulatedConversation, startsReplies: Bool,
        context: inout FeatureContext<ChatAppEvent>
    ) {
        if conversation.state == .webSocket {
            ChatWebSocket.read(stub: message, reader: conversation.contact, context: &context)
        }
        if startsReplies { planResponse(by: conversation, responsesGiven: 0, context: &context) }
    }

    /// A reply is due: it goes through the web socket while the chat is open, else as a push notification; after
    /// the app closed the loop stops, otherwise it plans the next reply.
    func replyDue(
        in conversation: SimulatedConversation, responsesGiven: Int, context: inout FeatureContext<ChatAppEvent>
    ) {
        let text = response(for: responsesGiven, random: &context.random)
        switch conversation.state {
        case .webSocket:
            let message = model.makeMessage(
                sender: .other(name: conversation.contact), message: text, state: .sent, sendDate: context.now)
            ChatWebSocket.send(stub: message, context: &context)
        case .inApp, .appClosed:
            pushController.send(stub: text, from: conversation.contact, sendDate: context.now, context: &context)
        }
        if conversation.state == .appClosed { return }
        planResponse(by: conversation, responsesGiven: responsesGiven + 1, context: &context)
    }

    /// The text of reply number `responsesGiven`: a greeting, then a question, then comments without repeats
    /// until the pool is used up, when it is refilled from the used ones (quirk fixed: the original never emptied
    /// its used list, so each refill doubled the pool and comments repeated).
    func response(for responsesGiven: Int, random: inout RandomSource) -> String {
        switch responsesGiven {
        case 0:
            return BotReplies.greetings.randomElement(using: &random) ?? BotReplies.greetingFallback
        case 1:
            return BotReplies.questions.randomElement(using: &random) ?? BotReplies.questionFallback
        default:
            if comments.isEmpty {
                comments = usedComments
                usedComments = []
            }
            guard !comments.isEmpty else { return BotReplies.commentFallback }
            let comment = comments.remove(at: Int.random(in: 0..<comments.count, using: &random))
            usedComments.append(comment)
            return comment
        }
    }

    private func read(
        message: Message, of conversation: SimulatedConversation, startsReplies: Bool,
        context: inout FeatureContext<ChatAppEvent>
    ) {
        let delay = 1_500 + 1_000 * Int.random(in: 0...3, using: &context.random)
        context.schedule(
            .simulator(
                .readReceiptDue(message: message, contact: conversation.contact, startsReplies: startsReplies)),
            after: .milliseconds(delay), source: .simulator)
    }

    /// Ends the session unless the user wrote in the last 30 s and fewer than 5 replies were given; otherwise the
    /// next reply is due in 5 + {0…9} s.
    private func planResponse(
        by conversation: SimulatedConversation, responsesGiven: Int, context: inout FeatureContext<ChatAppEvent>
    ) {
        guard conversation.lastReceivedMessage.addingTimeInterval(30) > context.now, responsesGiven < 5 else {
            activeConversations.removeAll { $0.contact == conversation.contact }
            return
        }
        let delay = 5 + Int.random(in: 0...9, using: &context.random)
        context.schedule(
            .simulator(.replyDue(contact: conversation.contact, responsesGiven: responsesGiven)),
            after: .seconds(delay), source: .simulator)
    }

    private func planGoodbye(for conversation: SimulatedConversation, context: inout FeatureContext<ChatAppEvent>) {
        guard conversation.lastReceivedMessage.addingTimeInterval(30) > context.now else { return }
        let delay = 3 + Int.random(in: 0...9, using: &context.random)
        let salute = BotReplies.salutes.randomElement(using: &context.random) ?? BotReplies.saluteFallback
        pushController.send(
            stub: salute, from: conversation.contact, sendDate: context.now.addingTimeInterval(Double(delay)),
            after: .seconds(delay), isGoodbye: true, context: &context)
    }
}
