import ChatAPI
import ViewHostAPI
import ViewModelCore

/// Builds the Chats screen's view model (seed 001, `ViewModels/ChatList/ChatListViewModelBuilder.swift`).
enum ChatListViewModelBuilder {
    /// The list while the first fetch runs: spinner on, chats hidden, and the empty text NOT hidden, so it shows
    /// under the spinner (quirk kept).
    static func buildLoading() -> ChatListViewModel {
        ChatListViewModel(showSpinner: true, hideEmptyMessage: false, hideChats: true, chats: [], actions: actions)
    }

    /// The list of `chats`, in model order (no sorting): the empty text hides when there are chats, the chats hide
    /// when there are none, no spinner.
    /// - Parameters:
    ///   - chats: The chats.
    ///   - messageEnds: Per chat, the history position its row shows messages up to (nil: all of them).
    ///   - people: The persons, whose chats' rows say so.
    ///   - dateRenderer: Renders the last messages' dates.
    /// - Returns: The list's view model.
    static func build(
        for chats: some Collection<Chat>, messageEnds: [Int]? = nil, people: PeopleState = PeopleState(),
        dateRenderer: DateRenderer
    ) -> ChatListViewModel {
        ChatListViewModel(
            showSpinner: false, hideEmptyMessage: !chats.isEmpty, hideChats: chats.isEmpty,
            chats: chats.enumerated().map { index, chat in
                ChatListItemViewModelBuilder.build(
                    for: chat, shownUpTo: messageEnds.flatMap { index < $0.count ? $0[index] : nil },
                    person: people.contacts.isEmpty ? nil : people.contact(named: chat.contact),
                    dateRenderer: dateRenderer)
            },
            actions: actions)
    }

    /// The list the Chats screen was last told to show (`inputs`), over `model`.
    static func build(
        inputs: ChatListViewModelInputs, model: ChatModel, people: PeopleState = PeopleState(),
        dateRenderer: DateRenderer
    ) -> ChatListViewModel {
        switch inputs {
        case .notStarted, .loading:
            buildLoading()
        case .loaded(let messageEnds):
            build(
                for: model.chats.prefix(messageEnds.count), messageEnds: messageEnds, people: people,
                dateRenderer: dateRenderer)
        }
    }

    /// `addChat` pushes Create Chat; `invite` creates a contact invitation for the chat.
    private static let actions = ChatListViewModel.Actions(
        addChat: ActionDescriptor(ChatIntent.addChat),
        invite: .contactInvitation(feature: ChatSnapshot.feature))
}
