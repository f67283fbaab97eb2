import ChatAPI
import ViewModelCore

extension FeatureRegistration {
    /// The chat (seed 001) as an app serves it: a new session's chat list appears at once (`appear`, as the
    /// original's Chats screen routes `applicationInitialized` on load); the page draws it with ``ChatApp/page``.
    public static let chat = FeatureRegistration.feature(
        ChatApp.self,
        FeatureHosting(initialState: { _ in ChatState() }, startEvents: [.intent(.appear)], page: ChatApp.page))
}
