/// What the Chats screen shows: the last inputs the chat handler gave it (the listener role of the original's
/// `ChatsViewController`). The screen is always at the bottom of the stack and always listening.
final class ChatListDisplay: ChatListListening {
    private(set) var inputs: ChatListViewModelInputs = .notStarted

    func updated(list: ChatListViewModelInputs) {
        inputs = list
    }

    /// The view model of the current inputs over `model`.
    func makeViewModel(model: ChatModel, dateRenderer: DateRenderer) -> ChatListViewModel {
        switch inputs {
        case .notStarted, .loading:
            ChatListViewModelBuilder.buildLoading()
        case .loaded(let messageEnds):
            ChatListViewModelBuilder.build(
                for: model.chats.prefix(messageEnds.count), messageEnds: messageEnds, dateRenderer: dateRenderer)
        }
    }
}
