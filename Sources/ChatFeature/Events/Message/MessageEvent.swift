/// What happened to messages: the original's `MessageEvent` (seed 001, `Events/Message/MessageEvent.swift`), with
/// the repository's case names. `previousMessages` is a ``MessageWindow`` instead of a copy of the messages.
public enum MessageEvent: Sendable, Equatable, Codable {
    /// The user's message was appended as `.sending`; the chat screen shows it with a spinner.
    case sending(message: Message, contact: String, previousMessages: MessageWindow)
    /// The simulated server took the message (1.5 s later).
    case sent(message: Message, contact: String)
    /// The message was refused; the chat screen shows `reason` (quirk fixed: the original never produced this).
    case failedSending(message: Message, contact: String, reason: String)
    /// A message from the other side arrived (web socket or push).
    case received(message: Message, contact: String)
    /// The chat screen showed the messages: everything `contact` sent is read now.
    case userRead(messagesSentBy: String)
    /// The other side read the user's message.
    case otherRead(yourMessage: Message, reader: String)
}
