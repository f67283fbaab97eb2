import ViewModelCore

/// The Create Chat screen (seed 001, `ViewModels/CreateChat/CreateChatViewModel.swift`), with the fixed texts of
/// `CreateChatViewController` / `CreateChatView` and the `create` closure as an action.
public struct CreateChatViewModel: ViewModel {
    /// The closures of the original, as actions.
    public struct Actions: Encodable, Equatable, Sendable {
        /// The create button and return key: posts `create` with the typed contact; disabled while sending.
        public let create: ActionDescriptor
    }

    /// The screen title, "Create Chat".
    public let title = "Create Chat"
    /// The text above the field.
    public let introduction = "Enter the name of the contact you want to start a new chat with:"
    /// The field's placeholder, "Contact".
    public let placeholder = "Contact"
    /// The button's title, "create" (lower case, as the original).
    public let createTitle = "create"
    /// Whether the error label is hidden.
    public let hideError: Bool
    /// Whether the create button is enabled.
    public let enableCreate: Bool
    /// Whether the spinner shows.
    public let showSpinner: Bool
    /// The error text, or "" (quirk fixed: the MVVM original never put it into its label).
    public let error: String
    /// What the screen can post.
    public let actions: Actions
}
