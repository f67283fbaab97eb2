import ViewModelCore

extension SharedListApp {
    /// How the page draws the list: each item with who added it (a participant's id mapped to the name the page's
    /// participants list gives), "added by you" for the viewer's own, and the add box. The script is
    /// `Resources/list-page.js`, plain JavaScript (no compiler), embedded in the code with its style.
    public static let page = PageRenderer(script: PackageResources.list_page_js, style: PackageResources.list_page_css)
}
