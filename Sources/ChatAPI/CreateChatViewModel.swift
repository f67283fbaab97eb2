import ViewHostAPI

/// The Create Chat screen (seed 001, `ViewModels/CreateChat/CreateChatViewModel.swift`), with the fixed texts of
/// `CreateChatViewController` / `CreateChatView` and the `create` closure as an action.
public struct CreateChatViewModel: ViewModel {
    /// The closures of the original, as actions.
    public struct Actions: Codable, Equatable, Sendable {
        /// The create button and return key: posts `create` with the typed contact; disabled while sending.
        public let create: ActionDescriptor

        /// Creates the actions.
        public init(create: ActionDescriptor) {
            self.create = create
        }
    }

    /// The screen title, "Create Chat".
    public let title: String
    /// The text above the field.
    public let introduction: String
    /// The field's placeholder, "Contact".
    public let placeholder: String
    /// The button's title, "create" (lower case, as the original).
    public let createTitle: String
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

    /// Creates a view model with the original's texts.
    public init(
        title: String = "Create Chat",
        introduction: String = "Enter the name of the contact you want to start a new chat with:",
        placeholder: String = "Contact", createTitle: String = "create", hideError: Bool, enableCreate: Bool,
        showSpinner: Bool, error: String, actions: Actions
    ) {
        self.title = title
        self.introduction = introduction
        self.placeholder = placeholder
        self.createTitle = createTitle
        self.hideError = hideError
        self.enableCreate = enableCreate
        self.showSpinner = showSpinner
        self.error = error
        self.actions = actions
    }
}
