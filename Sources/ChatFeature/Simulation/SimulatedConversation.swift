import Foundation

/// The bot's side of one contact (seed 001, `Stubs/SimulatedConversation.swift`): how its messages reach the
/// app, and when it last heard from the user. One per contact whose chat screen was loaded.
final class SimulatedConversation {
    /// How the contact's messages reach the app.
    enum State: Equatable {
        /// The chat screen is open: replies arrive at once and messages get read.
        case webSocket
        /// The user left the chat screen: replies arrive as push notifications.
        case inApp
        /// The app resigned active: replies arrive as push, and the reply loop stops after the next one.
        case appClosed
    }

    let contact: String
    /// When the user's last message to this contact was sent (starts as the conversation's creation time).
    private(set) var lastReceivedMessage: Date
    private(set) var state: State = .webSocket

    init(with contact: String, now: Date) {
        self.contact = contact
        lastReceivedMessage = now
    }

    func receivedMessage(now: Date) {
        lastReceivedMessage = now
    }

    func enteredChatViewController() {
        state = .webSocket
    }

    func leftChatViewController() {
        state = .inApp
    }

    func leftApp() {
        state = .appClosed
    }
}
