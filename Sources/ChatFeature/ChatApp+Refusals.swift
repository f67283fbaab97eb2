import ChatAPI
import ViewHostAPI
import ViewModelCore

/// Which client intents the chat's state cannot apply now, and why: a refused intent changes nothing and is
/// answered `409` with the intents accepted now. A domain refusal that the original shows on screen stays
/// state, not a refusal: an empty contact or message is applied and the screen shows "Please provide a contact
/// name" or "Enter a message!".
extension ChatApp {
    /// Refuses an intent the state cannot apply: no chat open or named, a contact without a chat, a disabled
    /// action (create while a create is on its way, back on the chat list), a full navigation stack.
    /// Internal events are never refused.
    public static func check(_ event: ChatAppEvent, in state: ChatState) throws(EventRefusal) {
        guard case .intent(let intent) = event, let reason = refusal(of: intent, in: state) else { return }
        throw EventRefusal(reason: reason, allowed: allowedIntents(in: state))
    }

    /// Why `intent` cannot be applied now, or nil when it can.
    static func refusal(of intent: ChatIntent, in state: ChatState) -> String? {
        switch intent {
        case .appear, .appResignActive, .appBecomeActive:
            return nil
        case .addChat:
            return canPush(.createChat, in: state) ? nil : stackFull(in: state)
        case .create:
            return ChatNavigator.createChat(in: state)?.isSending == true
                ? "A chat is being created: wait until it is there before creating another." : nil
        case .openChat(let contact):
            let name = normalized(contact, in: state)
            if let refusal = missingChat(name, in: state) { return refusal }
            return canPush(.chat(contact: name), in: state) ? nil : stackFull(in: state)
        case .send(_, let contact):
            guard let name = target(contact, in: state) else { return noChatOpen }
            if let refusal = missingChat(name, in: state) { return refusal }
            // While a message is on its way the Send button is busy, but the return key still sends (quirk kept).
            if let top = ChatNavigator.topChat(in: state), top.contact == name, top.isFailed {
                return "The chat on screen could not be opened; go back and open another."
            }
            return nil
        case .userRead(let contact):
            guard let name = target(contact, in: state) else { return noChatOpen }
            return missingChat(name, in: state)
        case .back:
            return state.screens.count > 1 ? nil : "The chat list is the first screen: there is nothing to go back to."
        case .notificationTap(let contact):
            return missingChat(normalized(contact, in: state), in: state)
        case .removeContact(let contact), .blockContact(let contact), .unblockContact(let contact):
            let name = normalized(contact, in: state)
            return state.people.contact(named: name) != nil
                ? nil
                : "There is no person '\(name)': only a contact made through an invitation can be removed or blocked."
        }
    }

    /// The intent kinds the state accepts now (at least for some payload), in ``ChatIntent/Kind`` order.
    static func allowedIntents(in state: ChatState) -> [ChatIntent.Kind] {
        let hasChats = !state.model.chats.isEmpty
        let top = ChatNavigator.topChat(in: state)
        return ChatIntent.Kind.allCases.filter { kind in
            switch kind {
            case .addChat: canPush(.createChat, in: state)
            case .create: ChatNavigator.createChat(in: state)?.isSending != true
            case .openChat, .userRead, .notificationTap: hasChats
            case .send: hasChats && top?.isFailed != true
            case .back: state.screens.count > 1
            case .appear, .appResignActive, .appBecomeActive: true
            case .removeContact, .blockContact, .unblockContact: !state.people.contacts.isEmpty
            }
        }
    }

    private static let noChatOpen = "No chat is open: open one (openChat) or name its contact."

    private static func missingChat(_ contact: String, in state: ChatState) -> String? {
        if contact.isEmpty { return "The contact is empty: name the contact of an existing chat." }
        return state.model.hasChat(with: contact) ? nil : "There is no chat with '\(contact)'; create it first."
    }

    /// Whether navigating to `screen` is possible: it is on top already, or the stack has room for it.
    private static func canPush(_ screen: ChatScreen, in state: ChatState) -> Bool {
        state.screens.last?.screen == screen || state.screens.count < max(1, state.configuration.maxScreens)
    }

    private static func stackFull(in state: ChatState) -> String {
        "The navigation stack holds \(state.configuration.maxScreens) screens, the most it may: go back first."
    }
}
