import ViewModelCore

extension FeatureRegistration {
    /// The to-do list: a new session's list is empty; the page draws it generically from its snapshot.
    public static let todo = FeatureRegistration.feature(TodoApp.self, FeatureHosting(initialState: { _ in TodoState() }))
}
