import Foundation
import ViewModelCore

/// Local push notifications (seed 001, `Models/PushNotificationController.swift` and
/// `Stubs/PushNotificationController+StubMessageSending.swift`): the bot sends them, the app receives them into
/// the chat, and the session keeps the banners as `notifications`.
final class PushNotificationController {
    /// A notification the app received.
    struct Delivered: Equatable {
        let id: Int
        let content: PushNotification
        /// False when a chat screen showed that contact, so the original hid the banner.
        let shown: Bool
    }

    private let model: ChatModel
    private let messageHandler: MessageEventHandler
    private let maxNotifications: Int
    private(set) var delivered: [Delivered] = []
    private var lastNotificationID = 0

    init(model: ChatModel, messageHandler: MessageEventHandler, maxNotifications: Int) {
        self.model = model
        self.messageHandler = messageHandler
        self.maxNotifications = maxNotifications
    }

    /// Schedules a notification from `contact`: title the contact, subtitle the rendered `sendDate`, body the
    /// text, badge the user's unread count now; it reaches the app after `delay` (0.1 s, the trigger's default).
    func send(
        stub text: String, from contact: String, sendDate: Date, after delay: Duration = .milliseconds(100),
        isGoodbye: Bool = false, context: inout FeatureContext<ChatAppEvent>
    ) {
        let content = PushNotification(
            title: contact, subtitle: DateRenderer(timeZone: context.timeZone).string(from: sendDate), body: text,
            badge: model.unreadMessageCount())
        context.schedule(
            .simulator(isGoodbye ? .goodbyeDue(content) : .pushDelivered(content)), after: delay, source: .simulator)
    }

    /// A notification reached the app: its message (from the title, with the body, state sent, dated by parsing
    /// the subtitle back, quirk kept: the seconds are lost, or now) is routed as `received`, and the banner is
    /// kept, marked hidden when the chat screen on top shows that contact. Only the newest `maxNotifications`
    /// banners are kept.
    func received(_ notification: PushNotification, context: inout FeatureContext<ChatAppEvent>) {
        let sendDate = DateParser(timeZone: context.timeZone).date(from: notification.subtitle) ?? context.now
        let message = model.makeMessage(
            sender: .other(name: notification.title), message: notification.body, state: .sent, sendDate: sendDate)
        context.route(.message(.received(message: message, contact: notification.title)), source: .simulator)
        lastNotificationID += 1
        delivered.append(
            Delivered(
                id: lastNotificationID, content: notification,
                shown: !messageHandler.canHandleMessage(for: notification.title)))
        if delivered.count > max(0, maxNotifications) {
            delivered.removeFirst(delivered.count - max(0, maxNotifications))
        }
        context.markChanged()
    }

    /// The user tapped a banner from `contact`: that contact's banners go away.
    func removeNotifications(from contact: String, context: inout FeatureContext<ChatAppEvent>) {
        let before = delivered.count
        delivered.removeAll { $0.content.title == contact }
        if delivered.count != before { context.markChanged() }
    }

    /// The banners as the snapshot shows them.
    func makeViewModels() -> [NotificationViewModel] {
        delivered.map {
            NotificationViewModel(
                id: "n\($0.id)", title: $0.content.title, subtitle: $0.content.subtitle, body: $0.content.body,
                badge: $0.content.badge, shown: $0.shown)
        }
    }
}
