import Foundation
import ViewHostAPI

import ChatAPI
@testable import ChatFeature

extension Date {
    /// 23-11-2026 14:00:00 UTC, the manual scheduler's default start (its doc says the 22nd; 1_795_442_400 is the 23rd).
    static let fixture = Date(timeIntervalSince1970: 1_795_442_400)
}

extension Message {
    /// A message with every field defaulted: John's first message, sent at ``Date/fixture``.
    static func make(
        id: Int = 1, sender: Sender = .other(name: "John"), message: String = "Hi, you're here too?",
        state: State = .sent, sendDate: Date = .fixture
    ) -> Message {
        Message(id: MessageID(value: id), sender: sender, message: message, state: state, sendDate: sendDate)
    }

    /// The user's message `id`, sending.
    static func user(_ id: Int, _ text: String = "Hey John", state: State = .sending, at date: Date = .fixture)
        -> Message
    {
        make(id: id, sender: .user, message: text, state: state, sendDate: date)
    }
}
