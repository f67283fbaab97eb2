/// The content of a local push notification, as the original's stub fills `UNMutableNotificationContent`
/// (seed 001, `Stubs/PushNotificationController+StubMessageSending.swift`).
public struct PushNotification: Sendable, Equatable, Codable {
    /// The sender's name (the contact).
    let title: String
    /// The send date as `DateRenderer` shows it; the receiving side parses it back (seconds lost, quirk kept).
    let subtitle: String
    /// The message text.
    let body: String
    /// The user's unread count when the notification was sent.
    let badge: Int
}
