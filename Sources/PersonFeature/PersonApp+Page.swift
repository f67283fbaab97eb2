import ViewModelCore

extension PersonApp {
    /// How the page draws the person: the name and birthdate as shown, and a form to replace the person. The script is
    /// `Resources/person-page.js`, compiled from `Clients/TypeScript/renderers/person.ts` (typed with the feature's
    /// generated types); both files are embedded in the code.
    public static let page = PageRenderer(script: PackageResources.person_page_js)
}
