import ChatAPI
import ViewHostAPI
import ViewModelCore

/// Builds the Create Chat screen's view model (seed 001, `ViewModels/CreateChat/CreateChatViewModelBuilder.swift`).
enum CreateChatViewModelBuilder {
    /// The screen while `isSending` (spinner, create disabled: the original's closure does nothing then) or
    /// idle, with `error` when set. The error text is in the view model (quirk fixed: the MVVM view never put it
    /// into its label).
    static func build(isSending: Bool, error: String?) -> CreateChatViewModel {
        CreateChatViewModel(
            hideError: error == nil, enableCreate: !isSending, showSpinner: isSending, error: error ?? "",
            actions: CreateChatViewModel.Actions(
                create: ActionDescriptor(enabled: !isSending) { (contact: String) in ChatIntent.create(contact: contact)
                }))
    }
}
