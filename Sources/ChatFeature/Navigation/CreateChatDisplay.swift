/// What one Create Chat screen shows: the last inputs the chat handler gave it (the listener role of the
/// original's `CreateChatViewController`).
final class CreateChatDisplay: CreateChatListening {
    private(set) var inputs = CreateChatViewModelInputs.initial

    func updated(create: CreateChatViewModelInputs) {
        inputs = create
    }

    /// The view model of the current inputs.
    func makeViewModel() -> CreateChatViewModel {
        CreateChatViewModelBuilder.build(isSending: inputs.isSending, error: inputs.error)
    }
}
