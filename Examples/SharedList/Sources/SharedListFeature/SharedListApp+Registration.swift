import ViewModelCore

extension FeatureRegistration {
    /// The shared list: a new session's list is empty; the page draws it with the feature's own renderer
    /// (``SharedListApp/page``), which names who added each item.
    public static let sharedList = FeatureRegistration.feature(
        SharedListApp.self, FeatureHosting(initialState: { _ in ListState() }, page: SharedListApp.page))
}
