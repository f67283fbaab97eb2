import ViewModelCore

extension LoginApp {
    /// How the page draws the login screen: the two fields (every edit posted, as the original sends on every
    /// change), the instruction line and the button. The script is `Resources/login-page.js`, compiled from
    /// `Clients/TypeScript/renderers/login.ts` (typed with the feature's generated types); both files are embedded in
    /// the code.
    public static let page = PageRenderer(
        script: PackageResources.login_page_js, style: PackageResources.login_page_css)
}
