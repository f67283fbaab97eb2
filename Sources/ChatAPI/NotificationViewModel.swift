import ViewHostAPI

/// A push banner the app received (seed 001, push stub): what the original's `UNNotificationContent` holds, plus
/// whether the banner was shown.
public struct NotificationViewModel: ViewModel {
    /// What a notification banner can do.
    public struct Actions: Codable, Equatable, Sendable {
        /// Tapping the banner (the original's `handle(response:)`): `notificationTap` with the contact.
        public let tap: ActionDescriptor

        /// Creates the actions.
        public init(tap: ActionDescriptor) {
            self.tap = tap
        }
    }

    /// The notification's id, such as `n2`.
    public let id: String
    /// The contact.
    public let title: String
    /// The send date, `dd-MM-yyyy HH:mm`.
    public let subtitle: String
    /// The message text.
    public let body: String
    /// The unread count when it was sent (the app-icon badge it carries).
    public let badge: Int
    /// False when the chat screen on top handles that contact, so the original hid the banner.
    public let shown: Bool
    /// The banner's tap: opens that contact's chat.
    public let actions: Actions

    /// Creates a banner whose tap opens `title`'s chat.
    public init(id: String, title: String, subtitle: String, body: String, badge: Int, shown: Bool) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.shown = shown
        self.actions = Actions(tap: ActionDescriptor(ChatIntent.notificationTap(contact: title)))
    }
}
