import ChatAPI
import ViewHostAPI
import ViewModelCore

/// What one Chat screen on the stack shows (the listener role of the original's `ChatViewController` and
/// `ChatView.display`).
///
/// On top of the stack it listens and keeps the inputs of its view model, which is built when a snapshot is
/// read. Covered by another screen it stops listening, as the original does, so it keeps showing the view model it
/// had: that one is built once, when it is covered (``freeze(model:dateRenderer:)``).
struct ChatDisplay: Codable, Equatable, Sendable {
    enum Content: Codable, Equatable, Sendable {
        case live(ChatViewModelInputs)
        case frozen(ChatViewModel)
    }

    let contact: String
    var content: Content = .live(.failed(reason: ChatError.cannotConnect.reason))

    init(contact: String) {
        self.contact = contact
    }

    /// Whether the screen shows a chat that could not be opened (its send does nothing, as in the original).
    var isFailed: Bool {
        if case .live(.failed) = content { return true }
        return false
    }

    /// Keeps the inputs; for a chat view model, reacts as `ChatView.display` does by calling
    /// `afterShowingMessages()`, which routes `userRead` (the failed view model's closure does nothing).
    mutating func updated(chat: ChatViewModelInputs, context: inout FeatureContext<ChatApp>) {
        content = .live(chat)
        if case .chat = chat {
            context.route(.message(.userRead(messagesSentBy: contact)), source: .view)
        }
    }

    /// Builds the view model shown now and keeps it, for a screen that stops listening but stays on the stack.
    mutating func freeze(model: ChatModel, dateRenderer: DateRenderer) {
        content = .frozen(makeViewModel(model: model, dateRenderer: dateRenderer))
    }

    /// The view model this screen shows.
    func makeViewModel(model: ChatModel, dateRenderer: DateRenderer) -> ChatViewModel {
        switch content {
        case .frozen(let viewModel):
            viewModel
        case .live(let inputs):
            ChatViewModelBuilder.build(for: model.chat(for: contact), inputs: inputs, dateRenderer: dateRenderer)
        }
    }
}
