import ViewModelCore

/// The stub web socket (seed 001, `Models/ChatWebSocket.swift` and
/// `Stubs/ChatWebSocketController+StubMessageSending.swift`): what the bot sends through it is routed at once.
/// The original's list of connected contacts is left out (quirk: nobody read it, and `disconnect` kept the
/// contact instead of removing it).
enum ChatWebSocket {
    /// The contact's message arrives now (`received`).
    static func send(stub message: Message, context: inout FeatureContext<ChatApp>) {
        guard case .other(let contact) = message.sender else { return }
        context.route(.message(.received(message: message, contact: contact)), source: .simulator)
    }

    /// The contact read the user's message now (`otherRead`).
    static func read(stub message: Message, reader: String, context: inout FeatureContext<ChatApp>) {
        context.route(.message(.otherRead(yourMessage: message, reader: reader)), source: .simulator)
    }
}
