import Foundation
import ViewHostAPI
import ViewModelCore

import ChatAPI
@testable import ChatFeature

/// The chat state with John's chat loaded and a conversation with each chat's contact, for unit tests of the bot
/// and the push stub that read what they schedule and route.
struct SimulationRig {
    var state = ChatState()

    init(chats: [Chat] = [.john], conversationsStartAt start: Date = .fixture) {
        state.model.load(chats: chats)
        for chat in chats {
            ConversationSimulator.createdConversation(with: chat.contact, now: start, state: &state)
        }
    }

    /// A context at `now` (default ``Date/fixture``) with a seeded random source.
    static func context(now: Date = .fixture, seed: UInt64 = 1) -> FeatureContext<ChatApp> {
        FeatureContext(now: now, source: .simulator, random: .seeded(seed))
    }

    /// Moves `contact`'s conversation to `conversationState`.
    mutating func set(_ contact: String, to conversationState: SimulatedConversation.State) {
        state.simulation.conversations[contact]?.state = conversationState
    }
}
