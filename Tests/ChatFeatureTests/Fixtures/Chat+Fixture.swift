import ViewHostAPI

import ChatAPI
@testable import ChatFeature

extension Chat {
    /// A chat with every field defaulted: John with his one unread message.
    static func make(contact: String = "John", messages: [Message] = [.make()]) -> Chat {
        Chat(contact: contact, messages: messages)
    }

    /// John's chat as the simulated server first sends it.
    static let john = Chat.make()
}
