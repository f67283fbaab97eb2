import ChatAPI
import ViewHostAPI
import ViewModelCore

/// Applies ``ChatCoordinator`` to the session's screens and runs what UIKit's lifecycle did in the original
/// (seed 001, `BaseNavigationViewController` and the view controllers):
/// - a screen pushed loads (`viewDidLoad`): Create Chat starts listening and gets its idle view model; a Chat
///   screen of an existing chat gives its contact a simulated conversation (once per contact);
/// - the screen leaving the top (`viewWillDisappear`): a Chat screen stops listening and its conversation goes
///   `.inApp`; if it stays on the stack (covered), it keeps the view model it showed;
/// - the screen arriving on top (`viewWillAppear`): a Chat screen starts listening, gets its first-load view
///   model (or the failed one), and its conversation goes `.webSocket`.
enum ChatNavigator {
    /// Changes the stack as `intent` asks (through the coordinator) and runs the screens' lifecycle.
    static func navigate(_ intent: NavigationIntent, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        let old = state.screens.map(\.screen)
        let next = ChatCoordinator.navigate(old, intent, maxScreens: state.configuration.maxScreens)
        guard next != old else { return }
        var kept = 0
        while kept < min(old.count, next.count), old[kept] == next[kept] { kept += 1 }
        disappear(at: old.count - 1, staysOnStack: old.count - 1 < kept, state: &state, context: context)
        state.screens.removeSubrange(kept...)
        for screen in next[kept...] { state.screens.append(load(screen, state: &state, context: &context)) }
        appear(at: state.screens.count - 1, state: &state, context: &context)
        context.markChanged()
    }

    /// The Chat screen on top, if the top is one.
    static func topChat(in state: ChatState) -> ChatDisplay? {
        if case .chat(let display) = state.screens.last { return display }
        return nil
    }

    /// What the topmost Create Chat screen on the stack shows, if one is there.
    static func createChat(in state: ChatState) -> CreateChatViewModelInputs? {
        for entry in state.screens.reversed() {
            if case .createChat(let inputs) = entry { return inputs }
        }
        return nil
    }

    /// The view model of the topmost Create Chat screen, or nil when none is on the stack.
    static func makeCreateChatViewModel(state: ChatState) -> CreateChatViewModel? {
        createChat(in: state).map { CreateChatViewModelBuilder.build(isSending: $0.isSending, error: $0.error) }
    }

    /// One view model per contact with a Chat screen on the stack: the topmost such screen's.
    static func makeChatViewModels(state: ChatState, dateRenderer: DateRenderer) -> [String: ChatViewModel] {
        var viewModels: [String: ChatViewModel] = [:]
        for entry in state.screens.reversed() {
            guard case .chat(let display) = entry, viewModels[display.contact] == nil else { continue }
            viewModels[display.contact] = display.makeViewModel(model: state.model, dateRenderer: dateRenderer)
        }
        return viewModels
    }

    private static func load(
        _ screen: ChatScreen, state: inout ChatState, context: inout FeatureContext<ChatApp>
    ) -> ChatScreenEntry {
        switch screen {
        case .chatList:
            // The coordinator never removes the bottom screen, so a new one is never loaded.
            preconditionFailure("the chat list is only ever the bottom screen")
        case .createChat:
            // It starts listening to the chat handler and gets the idle view model at once.
            context.markChanged()
            return .createChat(.initial)
        case .chat(let contact):
            // A person's chat has no bot: the person answers.
            if state.model.hasChat(with: contact), state.people.contact(named: contact) == nil {
                ConversationSimulator.createdConversation(with: contact, now: context.now, state: &state)
            }
            return .chat(ChatDisplay(contact: contact))
        }
    }

    private static func appear(at index: Int, state: inout ChatState, context: inout FeatureContext<ChatApp>) {
        guard case .chat(let display) = state.screens[index] else { return }
        MessageEventHandler.add(listenerAt: index, state: &state, context: &context)
        ConversationSimulator.enteredChatViewController(ofConversationWith: display.contact, state: &state)
    }

    private static func disappear(
        at index: Int, staysOnStack: Bool, state: inout ChatState, context: FeatureContext<ChatApp>
    ) {
        guard case .chat(var display) = state.screens[index] else { return }
        ConversationSimulator.leftChatViewController(ofConversationWith: display.contact, state: &state)
        guard staysOnStack else { return }
        display.freeze(model: state.model, dateRenderer: DateRenderer(timeZone: context.timeZone))
        state.screens[index] = .chat(display)
    }
}
