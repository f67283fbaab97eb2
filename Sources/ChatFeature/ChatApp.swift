import ChatAPI
import Foundation
import ViewHostAPI
import ViewModelCore

/// The Toptal chat app (seed 001, "static event-driven immutable MVVM") as a pure state machine over
/// ``ChatState``: the seed's routers, handlers, endpoint, coordinator and bot are functions of that state, and
/// every effect (a simulated round trip, the bot's delays) is a timer the session carries out.
///
/// The original kept all of its parts in `static` state shared by the whole app; here each session owns one
/// ``ChatState``, so sessions never see each other's chats, screens or bot. Handlers only record what each
/// screen should show; ``snapshot(of:settings:)`` runs the pure builders when a snapshot is read, so an event
/// costs O(1) whatever the history length.
///
/// ```swift
/// let session = Session(id: .random(), token: .random(), environment: environment,
///                       features: [InitialFeature(ChatApp.key, state: ChatState())])
/// try session.send([.intent(.appear)], to: ChatApp.key, source: .view)   // loading list, John after 0.5 s
/// try session.send([.intent(.openChat(contact: "John")), .intent(.send(text: "Hi"))], to: ChatApp.key)
/// ```
public enum ChatApp: Feature {
    /// A session's chats, screens, banners and bot, as stored.
    public typealias State = ChatState
    /// A client's intent, or an event the feature schedules or routes for itself (round trips, the bot), never posted.
    public typealias Event = ChatAppEvent
    /// What a client may post (`ChatIntent.types`).
    public typealias Intent = ChatIntent
    /// What a client reads: the badge, the navigation stack and each screen's view model.
    public typealias Snapshot = ChatSnapshot

    /// A client's intent is applied as it is (the routers then do what the original's closures did).
    public static func event(for intent: ChatIntent) -> ChatAppEvent {
        .intent(intent)
    }

    /// Applies one client intent or internal event.
    public static func apply(_ event: ChatAppEvent, to state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        switch event {
        case .intent(let intent):
            apply(intent, to: &state, context: &context)
        case .chat(let event):
            ChatEventRouter.route(event, state: &state, context: &context)
        case .message(let event):
            MessageEventRouter.route(event, state: &state, context: &context)
        case .simulator(let event):
            ConversationSimulator.handle(event, state: &state, context: &context)
        case .person(let event):
            PersonCourier.handle(event, state: &state, context: &context)
        }
    }

    private static func apply(_ intent: ChatIntent, to state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        switch intent {
        case .appear:
            guard !state.hasAppeared else { return }
            state.hasAppeared = true
            context.route(.chat(.applicationInitialized), source: context.source)
        case .addChat:
            ChatNavigator.navigate(.addChat, state: &state, context: &context)
        case .create(let contact):
            create(contact: contact, state: &state, context: &context)
        case .openChat(let contact):
            ChatNavigator.navigate(.openChat(contact: normalized(contact, in: state)), state: &state, context: &context)
        case .send(let text, let contact):
            send(text: text, to: contact, state: &state, context: &context)
        case .userRead(let contact):
            guard let contact = target(contact, in: state) else { return }
            MessageEventRouter.route(.userRead(messagesSentBy: contact), state: &state, context: &context)
        case .back:
            ChatNavigator.navigate(.back, state: &state, context: &context)
        case .appResignActive:
            ConversationSimulator.leftApplication(state: &state, context: &context)
        case .appBecomeActive:
            // The original does nothing here: conversations stay `.appClosed` until their chat screen appears
            // again (quirk kept), and no screen is told anything.
            break
        case .notificationTap(let contact):
            notificationTapped(contact: normalized(contact, in: state), state: &state, context: &context)
        case .removeContact(let contact):
            removeContact(normalized(contact, in: state), state: &state, context: &context)
        case .blockContact(let contact), .unblockContact(let contact):
            state.people.update(normalized(contact, in: state)) { $0.blocked = intent.kind == .blockContact }
            context.markChanged()
            PersonCourier.refreshLists(state: &state, context: &context)
        }
    }

    /// The snapshot of the current state: the builders run over the model and each screen's recorded inputs.
    public static func snapshot(of state: ChatState, settings: SessionSettings) -> ChatSnapshot {
        let renderer = DateRenderer(timeZone: settings.timeZone)
        let screens = state.screens.map(\.screen)
        return ChatSnapshot(
            badge: state.model.unreadMessageCount(),
            navigation: screens,
            chatList: ChatListViewModelBuilder.build(
                inputs: state.chatList, model: state.model, people: state.people, dateRenderer: renderer),
            createChat: ChatNavigator.makeCreateChatViewModel(state: state),
            conversations: ChatNavigator.makeChatViewModels(state: state, dateRenderer: renderer),
            notifications: PushNotificationController.makeViewModels(state: state),
            actions: ChatSnapshot.Actions(back: ActionDescriptor(ChatIntent.back, enabled: screens.count > 1)))
    }
}
