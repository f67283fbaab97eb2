/// What the simulated other side does later: the original's `DispatchQueue.main.asyncAfter` blocks in
/// `StubMessageSender` and the local-notification trigger, as events the session's timers deliver.
public enum SimulatorEvent: Sendable, Equatable, Codable {
    /// The contact reads the user's message now (if the chat is open); the first of a reply session then plans
    /// the first reply.
    case readReceiptDue(message: Message, contact: String, startsReplies: Bool)
    /// The contact sends reply number `responsesGiven` (0-based) of the current reply session.
    case replyDue(contact: String, responsesGiven: Int)
    /// A push notification reaches the app 0.1 s after the bot sent it.
    case pushDelivered(PushNotification)
    /// A goodbye push reaches the app (3–12 s after the app resigned active).
    case goodbyeDue(PushNotification)
}
