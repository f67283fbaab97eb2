import ChatAPI
import Foundation
import ViewHostAPI
import ViewModelCore

/// The push banners a session received, and the number the next one gets.
struct NotificationState: Codable, Equatable, Sendable {
    /// A notification the app received.
    struct Delivered: Codable, Equatable, Sendable {
        let id: Int
        let content: PushNotification
        /// False when a chat screen showed that contact, so the original hid the banner.
        let shown: Bool
    }

    var delivered: [Delivered] = []
    var lastNotificationID = 0
}

/// Local push notifications (seed 001, `Models/PushNotificationController.swift` and
/// `Stubs/PushNotificationController+StubMessageSending.swift`): the bot sends them, the app receives them into
/// the chat, and the session keeps the banners as `notifications`.
enum PushNotificationController {
    /// Schedules a notification from `contact`: title the contact, subtitle the rendered `sendDate`, body the
    /// text, badge the user's unread count now; it reaches the app after `delay` (0.1 s, the trigger's default).
    static func send(
        stub text: String, from contact: String, sendDate: Date, after delay: Duration = .milliseconds(100),
        isGoodbye: Bool = false, state: ChatState, context: inout FeatureContext<ChatApp>
    ) {
        let content = PushNotification(
            title: contact, subtitle: DateRenderer(timeZone: context.timeZone).string(from: sendDate), body: text,
            badge: state.model.unreadMessageCount())
        context.schedule(
            .simulator(isGoodbye ? .goodbyeDue(content) : .pushDelivered(content)), after: delay, source: .simulator)
    }

    /// A notification reached the app: its message (from the title, with the body, state sent, dated by parsing
    /// the subtitle back, quirk kept: the seconds are lost, or now) is routed as `received`, and the banner is
    /// kept, marked hidden when the chat screen on top shows that contact. Only the newest `maxNotifications`
    /// banners are kept. `source` is the received message's: the bot's (`simulator`), or a person's (`session`).
    static func received(
        _ notification: PushNotification, source: EventSource = .simulator, state: inout ChatState,
        context: inout FeatureContext<ChatApp>
    ) {
        let sendDate = DateParser(timeZone: context.timeZone).date(from: notification.subtitle) ?? context.now
        let message = state.model.makeMessage(
            sender: .other(name: notification.title), message: notification.body, state: .sent, sendDate: sendDate)
        context.route(.message(.received(message: message, contact: notification.title)), source: source)
        state.notifications.lastNotificationID += 1
        state.notifications.delivered.append(
            NotificationState.Delivered(
                id: state.notifications.lastNotificationID, content: notification,
                shown: !MessageEventHandler.canHandleMessage(for: notification.title, in: state)))
        let limit = max(0, state.configuration.maxNotifications)
        if state.notifications.delivered.count > limit {
            state.notifications.delivered.removeFirst(state.notifications.delivered.count - limit)
        }
        context.markChanged()
    }

    /// The user tapped a banner from `contact`: that contact's banners go away.
    static func removeNotifications(
        from contact: String, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) {
        let before = state.notifications.delivered.count
        state.notifications.delivered.removeAll { $0.content.title == contact }
        if state.notifications.delivered.count != before { context.markChanged() }
    }

    /// The banners as the snapshot shows them.
    static func makeViewModels(state: ChatState) -> [NotificationViewModel] {
        state.notifications.delivered.map {
            NotificationViewModel(
                id: "n\($0.id)", title: $0.content.title, subtitle: $0.content.subtitle, body: $0.content.body,
                badge: $0.content.badge, shown: $0.shown)
        }
    }
}
