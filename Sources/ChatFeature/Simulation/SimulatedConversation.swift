import Foundation

/// The bot's side of one contact (seed 001, `Stubs/SimulatedConversation.swift`): how its messages reach the
/// app, and when it last heard from the user. One per contact whose chat screen was loaded.
struct SimulatedConversation: Codable, Equatable, Sendable {
    /// How the contact's messages reach the app.
    enum State: String, Codable, Equatable, Sendable {
        /// The chat screen is open: replies arrive at once and messages get read.
        case webSocket
        /// The user left the chat screen: replies arrive as push notifications.
        case inApp
        /// The app resigned active: replies arrive as push, and the reply loop stops after the next one.
        case appClosed
    }

    let contact: String
    /// When the user's last message to this contact was sent (starts as the conversation's creation time).
    var lastReceivedMessage: Date
    var state: State = .webSocket

    init(with contact: String, now: Date) {
        self.contact = contact
        lastReceivedMessage = now
    }
}
