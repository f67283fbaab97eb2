import ViewModelCore

/// Applies ``ChatCoordinator`` to the session's screens and runs what UIKit's lifecycle did in the original
/// (seed 001, `BaseNavigationViewController` and the view controllers):
/// - a screen pushed loads (`viewDidLoad`): Create Chat starts listening and gets its idle view model; a Chat
///   screen of an existing chat gives its contact a simulated conversation (once per contact);
/// - the screen leaving the top (`viewWillDisappear`): a Chat screen stops listening and its conversation goes
///   `.inApp`; if it stays on the stack (covered), it keeps the view model it showed;
/// - the screen arriving on top (`viewWillAppear`): a Chat screen starts listening, gets its first-load view
///   model (or the failed one), and its conversation goes `.webSocket`.
final class ChatNavigator {
    /// One screen on the stack with what it shows.
    private enum Display {
        case chatList(ChatListDisplay)
        case createChat(CreateChatDisplay)
        case chat(ChatDisplay)
    }

    private struct Entry {
        let screen: ChatScreen
        let display: Display
    }

    private let model: ChatModel
    private let chatHandler: ChatEventHandler
    private let messageHandler: MessageEventHandler
    private let simulator: ConversationSimulator
    private let maxScreens: Int
    private var entries: [Entry]

    init(
        chatList: ChatListDisplay, model: ChatModel, chatHandler: ChatEventHandler,
        messageHandler: MessageEventHandler, simulator: ConversationSimulator, maxScreens: Int
    ) {
        self.model = model
        self.chatHandler = chatHandler
        self.messageHandler = messageHandler
        self.simulator = simulator
        self.maxScreens = maxScreens
        entries = [Entry(screen: .chatList, display: .chatList(chatList))]
    }

    /// The stack, bottom first.
    var screens: [ChatScreen] { entries.map(\.screen) }

    /// The Chat screen on top, if the top is one.
    var topChat: ChatDisplay? {
        if case .chat(let display) = entries.last?.display { return display }
        return nil
    }

    /// The topmost Create Chat screen on the stack, if any.
    var createChat: CreateChatDisplay? {
        for entry in entries.reversed() {
            if case .createChat(let display) = entry.display { return display }
        }
        return nil
    }

    /// Changes the stack as `intent` asks (through the coordinator) and runs the screens' lifecycle.
    func navigate(_ intent: NavigationIntent, context: inout FeatureContext<ChatAppEvent>) {
        let old = entries
        let next = ChatCoordinator.navigate(old.map(\.screen), intent, maxScreens: maxScreens)
        guard next != old.map(\.screen) else { return }
        var kept = 0
        while kept < min(old.count, next.count), old[kept].screen == next[kept] { kept += 1 }
        if let top = old.last { disappear(top, staysOnStack: old.count - 1 < kept, context: &context) }
        for entry in old[kept...] {
            if case .createChat(let display) = entry.display { chatHandler.remove(listener: display) }
        }
        entries = Array(old[..<kept])
        for screen in next[kept...] { entries.append(load(screen, context: &context)) }
        if let top = entries.last { appear(top, context: &context) }
        context.markChanged()
    }

    /// The view model of the topmost Create Chat screen, or nil when none is on the stack.
    func makeCreateChatViewModel() -> CreateChatViewModel? {
        createChat?.makeViewModel()
    }

    /// One view model per contact with a Chat screen on the stack: the topmost such screen's.
    func makeChatViewModels(dateRenderer: DateRenderer) -> [String: ChatViewModel] {
        var viewModels: [String: ChatViewModel] = [:]
        for entry in entries.reversed() {
            guard case .chat(let display) = entry.display, viewModels[display.contact] == nil else { continue }
            viewModels[display.contact] = display.makeViewModel(model: model, dateRenderer: dateRenderer)
        }
        return viewModels
    }

    private func load(_ screen: ChatScreen, context: inout FeatureContext<ChatAppEvent>) -> Entry {
        switch screen {
        case .chatList:
            // The coordinator never removes the bottom screen, so a new one is never loaded.
            preconditionFailure("the chat list is only ever the bottom screen")
        case .createChat:
            let display = CreateChatDisplay()
            chatHandler.add(listener: display, context: &context)
            return Entry(screen: screen, display: .createChat(display))
        case .chat(let contact):
            if model.hasChat(with: contact) { simulator.createdConversation(with: contact, now: context.now) }
            return Entry(screen: screen, display: .chat(ChatDisplay(contact: contact)))
        }
    }

    private func appear(_ entry: Entry, context: inout FeatureContext<ChatAppEvent>) {
        guard case .chat(let display) = entry.display else { return }
        messageHandler.add(listener: display, context: &context)
        simulator.enteredChatViewController(ofConversationWith: display.contact)
    }

    private func disappear(_ entry: Entry, staysOnStack: Bool, context: inout FeatureContext<ChatAppEvent>) {
        guard case .chat(let display) = entry.display else { return }
        messageHandler.remove(listener: display)
        simulator.leftChatViewController(ofConversationWith: display.contact)
        if staysOnStack { display.freeze(model: model, dateRenderer: DateRenderer(timeZone: context.timeZone)) }
    }
}
