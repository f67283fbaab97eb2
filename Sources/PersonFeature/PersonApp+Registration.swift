import ViewModelCore

extension FeatureRegistration {
    /// The person feature (seed 003) as an app serves it: a new session shows the seed's test person; the page
    /// draws it with ``PersonApp/page``.
    public static let person = FeatureRegistration.feature(
        PersonApp.self, FeatureHosting(initialState: { _ in PersonApp.initialState }, page: PersonApp.page))
}
