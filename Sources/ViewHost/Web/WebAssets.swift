/// The page's files, embedded in the code (`Web/Resources`, SwiftPM's `.embedInCode`): its markup and style, and
/// its script, compiled from `Clients/TypeScript` by `Clients/TypeScript/compile.sh` (the compiled JavaScript is
/// committed, so a build needs no TypeScript compiler; the test command checks it equals a fresh compile).
enum WebAssets {
    /// `index.html`: the page, its feature sections in place of `<!-- sections -->`.
    static let page = PackageResources.index_html
    /// `app.css`: the library's style; each feature's renderer style follows it.
    static let style = PackageResources.app_css
    /// `app.mjs`, served as `/app.js`: the page's module; each feature's renderer follows it.
    static let script = PackageResources.app_mjs

    /// The modules `app.js` imports (and any page of the server's origin may: `/client/index.mjs` is the
    /// TypeScript client), by their paths on the server, which are their paths under `Web/Resources`.
    static let modules: [String: [UInt8]] = [
        "/client/action.mjs": PackageResources.action_mjs,
        "/client/backoff.mjs": PackageResources.backoff_mjs,
        "/client/changes.mjs": PackageResources.changes_mjs,
        "/client/client.mjs": PackageResources.client_mjs,
        "/client/cookies.mjs": PackageResources.cookies_mjs,
        "/client/errors.mjs": PackageResources.errors_mjs,
        "/client/index.mjs": PackageResources.index_mjs,
        "/client/invitations.mjs": PackageResources.invitations_mjs,
        "/client/options.mjs": PackageResources.options_mjs,
        "/client/patch.mjs": PackageResources.patch_mjs,
        "/client/queue.mjs": PackageResources.queue_mjs,
        "/client/session.mjs": PackageResources.session_mjs,
        "/client/sse.mjs": PackageResources.sse_mjs,
        "/client/transport.mjs": PackageResources.transport_mjs,
        "/page/actions.mjs": PackageResources.actions_mjs,
        "/page/dom.mjs": PackageResources.dom_mjs,
        "/page/generic.mjs": PackageResources.generic_mjs,
        "/page/history.mjs": PackageResources.history_mjs,
        "/page/participants.mjs": PackageResources.participants_mjs,
        "/page/people.mjs": PackageResources.people_mjs,
        "/page/sessions.mjs": PackageResources.sessions_mjs,
        "/page/ui.mjs": PackageResources.ui_mjs,
        "/page/values.mjs": PackageResources.values_mjs,
    ]
}
