import ChatAPI
import ViewHostAPI
import ViewModelCore

/// Builds one Chats row (seed 001, `ViewModels/ChatList/ChatListItemViewModelBuilder.swift`).
enum ChatListItemViewModelBuilder {
    /// The row of `chat`: the last message's text and date (or "" when there is none), the user's unread count in
    /// that chat, and `itemTapped` opening it.
    /// - Parameters:
    ///   - chat: The chat.
    ///   - end: The history position the row shows messages up to, when the list is older than the chat.
    ///   - person: The person the chat is with, or nil for a bot's chat (a person's row also has their id, the
    ///     name they gave, whether they are blocked, and `remove` and `block` or `unblock`).
    ///   - dateRenderer: Renders the last message's date.
    /// - Returns: The row's view model.
    static func build(
        for chat: Chat, shownUpTo end: Int? = nil, person: PersonContact? = nil, dateRenderer: DateRenderer
    ) -> ChatListItemViewModel {
        let last = end.map { chat.lastMessage(before: $0) } ?? chat.lastMessage
        let open = ActionDescriptor(ChatIntent.openChat(contact: chat.contact))
        let actions =
            person.map { person in
                ChatListItemViewModel.Actions(
                    itemTapped: open, remove: ActionDescriptor(ChatIntent.removeContact(contact: chat.contact)),
                    block: person.blocked ? nil : ActionDescriptor(ChatIntent.blockContact(contact: chat.contact)),
                    unblock: person.blocked ? ActionDescriptor(ChatIntent.unblockContact(contact: chat.contact)) : nil)
            } ?? ChatListItemViewModel.Actions(itemTapped: open)
        return ChatListItemViewModel(
            contact: chat.contact,
            message: last?.message ?? "",
            lastMessageDate: last.map { dateRenderer.string(from: $0.sendDate) } ?? "",
            unreadMessageCount: chat.unreadCount,
            actions: actions, contactID: person?.id, contactName: person?.name, blocked: person?.blocked)
    }
}
