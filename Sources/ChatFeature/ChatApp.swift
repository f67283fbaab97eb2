import Foundation
import ViewModelCore

/// The Toptal chat app (seed 001, "static event-driven immutable MVVM") for one session: the composition root
/// that builds this session's model, endpoint, routers, handlers, screens, navigation and simulated other side.
///
/// The original kept all of these in `static` state shared by the whole app; here each session owns one
/// `ChatApp`, so sessions never see each other's chats, screens or bot. Events are applied one at a time under
/// the session's lock. Handlers only record what each screen should show; ``makeViewModel()`` runs the pure
/// builders when a snapshot is read, so an event costs O(1) whatever the history length.
///
/// ```swift
/// let session = Session(id: .random(), token: .random(), environment: environment,
///                       features: [SessionFeature(ChatApp.key, model: ChatApp())])
/// session.send([.appear], to: ChatApp.key, source: .view)      // loading list, John after 0.5 s
/// session.send([.openChat(contact: "John"), .send(text: "Hi", contact: nil)], to: ChatApp.key)
/// ```
public final class ChatApp: FeatureModel {
    /// Client intents and internal events (``ChatAppEvent``).
    public typealias Event = ChatAppEvent
    /// The session's chat snapshot (``ChatSnapshot``).
    public typealias Snapshot = ChatSnapshot

    /// The feature's key: `chat`.
    public static let key = FeatureKey<ChatApp>("chat")

    let configuration: ChatConfiguration
    let model: ChatModel
    let endpoint: ChatEndpoint
    let chatRouter: ChatEventRouter
    let messageRouter: MessageEventRouter
    let simulator: ConversationSimulator
    let pushController: PushNotificationController
    let navigator: ChatNavigator
    private let chatList = ChatListDisplay()
    private var hasAppeared = false
    /// The session's zone, picked up from the first event (a session's zone never changes).
    private var dateRenderer: DateRenderer?

    /// Creates the chat app of one session.
    /// - Parameter configuration: The session's limits.
    public init(configuration: ChatConfiguration = ChatConfiguration()) {
        self.configuration = configuration
        model = ChatModel(configuration: configuration)
        endpoint = ChatEndpoint(model: model)
        let chatHandler = ChatEventHandler(model: model, endpoint: endpoint)
        let messageHandler = MessageEventHandler(model: model, chatEventHandler: chatHandler)
        pushController = PushNotificationController(
            model: model, messageHandler: messageHandler, maxNotifications: configuration.maxNotifications)
        simulator = ConversationSimulator(
            sender: StubMessageSender(model: model, pushController: pushController), pushController: pushController)
        chatRouter = ChatEventRouter(model: model, endpoint: endpoint, handler: chatHandler)
        messageRouter = MessageEventRouter(model: model, handler: messageHandler, simulator: simulator)
        navigator = ChatNavigator(
            chatList: chatList, model: model, chatHandler: chatHandler, messageHandler: messageHandler,
            simulator: simulator, maxScreens: configuration.maxScreens)
        chatHandler.navigator = navigator
        chatHandler.add(listener: chatList)
    }

    /// Applies one client intent or internal event.
    public func apply(_ event: ChatAppEvent, context: inout FeatureContext<ChatAppEvent>) {
        if dateRenderer == nil { dateRenderer = DateRenderer(timeZone: context.timeZone) }
        switch event {
        case .appear:
            guard !hasAppeared else { return }
            hasAppeared = true
            context.route(.chat(.applicationInitialized), source: context.source)
        case .addChat:
            navigator.navigate(.addChat, context: &context)
        case .create(let contact):
            create(contact: contact, context: &context)
        case .openChat(let contact):
            openChat(contact: normalized(contact), context: &context)
        case .send(let text, let contact):
            send(text: text, to: contact, context: &context)
        case .userRead(let contact):
            guard let contact = target(contact) else { return }
            messageRouter.route(.userRead(messagesSentBy: contact), context: &context)
        case .back:
            navigator.navigate(.back, context: &context)
        case .appResignActive:
            simulator.leftApplication(context: &context)
        case .appBecomeActive:
            // The original does nothing here: conversations stay `.appClosed` until their chat screen appears
            // again (quirk kept), and no screen is told anything.
            break
        case .notificationTap(let contact):
            notificationTapped(contact: normalized(contact), context: &context)
        case .chat(let event):
            chatRouter.route(event, context: &context)
        case .message(let event):
            messageRouter.route(event, context: &context)
        case .simulator(let event):
            simulator.handle(event, context: &context)
        }
    }

    /// The snapshot of the current state: the builders run over the model and each screen's recorded inputs.
    public func makeViewModel() -> ChatSnapshot {
        let renderer = dateRenderer ?? DateRenderer(timeZone: .gmt)
        let screens = navigator.screens
        return ChatSnapshot(
            badge: model.unreadMessageCount(),
            navigation: screens,
            chatList: chatList.makeViewModel(model: model, dateRenderer: renderer),
            createChat: navigator.makeCreateChatViewModel(),
            conversations: navigator.makeChatViewModels(dateRenderer: renderer),
            notifications: pushController.makeViewModels(),
            actions: ChatSnapshot.Actions(back: ActionDescriptor(event: "back", enabled: screens.count > 1)))
    }
}
