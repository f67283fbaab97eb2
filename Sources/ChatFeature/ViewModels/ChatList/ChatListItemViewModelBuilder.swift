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
    ///   - dateRenderer: Renders the last message's date.
    /// - Returns: The row's view model.
    static func build(for chat: Chat, shownUpTo end: Int? = nil, dateRenderer: DateRenderer) -> ChatListItemViewModel {
        let last = end.map { chat.lastMessage(before: $0) } ?? chat.lastMessage
        return ChatListItemViewModel(
            contact: chat.contact,
            message: last?.message ?? "",
            lastMessageDate: last.map { dateRenderer.string(from: $0.sendDate) } ?? "",
            unreadMessageCount: chat.unreadCount,
            actions: ChatListItemViewModel.Actions(
                itemTapped: ActionDescriptor(ChatIntent.openChat(contact: chat.contact))))
    }
}
