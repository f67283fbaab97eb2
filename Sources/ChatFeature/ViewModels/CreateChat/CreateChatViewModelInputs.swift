/// What the Create Chat screen was last told to show: the inputs of ``CreateChatViewModelBuilder``.
struct CreateChatViewModelInputs: Equatable, Sendable, Codable {
    /// A create request is on its way.
    var isSending: Bool
    /// The refusal to show, if any.
    var error: String?

    /// What a new Create Chat screen gets when it is added as a listener.
    static let initial = CreateChatViewModelInputs(isSending: false, error: nil)
}
