import ViewModelCore

extension ChatApp {
    /// How the page draws the chat: the screen on top of the navigation stack (the chat list, Create Chat or a
    /// conversation), the badge, and the push banners above the page. The script is `Resources/chat-page.js`, compiled
    /// from `Clients/TypeScript/renderers/chat.ts` (typed with the feature's generated types); both files are embedded
    /// in the code.
    public static let page = PageRenderer(script: PackageResources.chat_page_js, style: PackageResources.chat_page_css)
}
