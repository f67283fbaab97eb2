/// What a Chat screen was last told to show: the inputs of ``ChatViewModelBuilder``, recorded by the message
/// handler in O(1) and turned into a view model only when a snapshot is read.
enum ChatViewModelInputs: Equatable, Sendable, Codable {
    /// `build(for:isSending:isFirstLoad:error:previousMessages:)` over the contact's chat.
    case chat(isSending: Bool, isFirstLoad: Bool, error: String?, previousMessages: MessageWindow)
    /// `buildFailed(reason:)`.
    case failed(reason: String)
}
