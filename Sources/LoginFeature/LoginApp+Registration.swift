import ViewModelCore

extension FeatureRegistration {
    /// The login demo (seed 002) as an app serves it: a new session starts at the original's `maruko` / `1234`;
    /// texts follow the session's locale (`zh-Hans` gives the original Chinese); the page draws it with
    /// ``LoginApp/page``.
    public static let login = FeatureRegistration.feature(
        LoginApp.self, FeatureHosting(initialState: { _ in LoginApp.initialState }, page: LoginApp.page))
}
