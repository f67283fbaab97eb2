/// A request to change the navigation stack; only ``ChatCoordinator/navigate(_:_:maxScreens:)`` applies it.
enum NavigationIntent: Equatable {
    /// `addChat` (the "+" button): push Create Chat.
    case addChat
    /// `created`: the Chat screen of the new chat replaces Create Chat (`removePreviousFromStack: true`).
    case created(contact: String)
    /// `itemTapped` on a chat-list row: push that Chat screen.
    case openChat(contact: String)
    /// A tapped push notification: push that Chat screen.
    case notificationTap(contact: String)
    /// The back button: pop one screen.
    case back
    /// A person's contact was removed: every Chat screen of `contact` leaves the stack.
    case close(contact: String)
}
