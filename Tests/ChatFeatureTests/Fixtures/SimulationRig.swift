import Foundation
import ViewModelCore

@testable import ChatFeature

/// The bot's parts without a session, for unit tests that read what they schedule and route.
struct SimulationRig {
    let model: ChatModel
    let messageHandler: MessageEventHandler
    let pushController: PushNotificationController
    let sender: StubMessageSender

    init(chats: [Chat] = [.john]) {
        model = ChatModel(configuration: ChatConfiguration())
        model.load(chats: chats)
        let chatHandler = ChatEventHandler(model: model, endpoint: ChatEndpoint(model: model))
        messageHandler = MessageEventHandler(model: model, chatEventHandler: chatHandler)
        pushController = PushNotificationController(model: model, messageHandler: messageHandler, maxNotifications: 20)
        sender = StubMessageSender(model: model, pushController: pushController)
    }

    /// A context at `now` (default ``Date/fixture``) with a seeded random source.
    static func context(now: Date = .fixture, seed: UInt64 = 1) -> FeatureContext<ChatAppEvent> {
        FeatureContext(now: now, source: .simulator, random: .seeded(seed))
    }
}
