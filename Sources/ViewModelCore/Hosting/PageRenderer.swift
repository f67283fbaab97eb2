/// How the web page draws one feature, when the generic drawing (every value, list and nested view model of the
/// snapshot, and a button or a small form for each action) is not enough: a script that registers a renderer,
/// and the style it needs.
///
/// The script is plain JavaScript, a file of the feature's own target embedded in its code
/// (`resources: [.embedInCode("Resources")]` in `Package.swift`, then
/// `PageRenderer(script: PackageResources.notes_page_js)`), or a string. It runs in the page after the library's
/// own `app.js`, in the same ES module (strict mode; its top-level names stay its own), under the page's
/// `Content-Security-Policy`, and registers one function under the feature's name. That function gets the snapshot,
/// the values of the section's inputs by id (so typing survives a redraw) and the page's helpers, and returns the
/// DOM nodes of the feature's section:
///
/// ```js
/// ViewHost.renderers.notes = (snapshot, inputs, ui) => [
///   ui.el("h2", {}, snapshot.title),
///   ...snapshot.notes.map((note) => ui.el("p", {}, note.text)),
///   ui.actionForm(snapshot.actions.add, "Add a note"),
/// ];
/// ```
///
/// `ui` offers `el(tag, attributes, ...children)` (text only, never HTML), `post(action, params)` (posts an action
/// as the snapshot describes it), `actionButton(action, label)`, `actionForm(action, label)`, `generic(snapshot)`
/// (the generic drawing) and `status(text)`. A renderer may be written in TypeScript, with the types the app's
/// `typescript` command prints, and its compiled JavaScript embedded: the seed features' are
/// (`Clients/TypeScript/renderers/`).
public struct PageRenderer: Sendable, Equatable {
    /// The script that registers the renderer.
    public var script: String
    /// CSS rules the renderer's nodes need (scoped by the author, such as `#notes .pinned { … }`).
    public var style: String

    /// Creates a renderer.
    public init(script: String, style: String = "") {
        self.script = script
        self.style = style
    }

    /// Creates a renderer from files embedded in the feature's code (SwiftPM's `.embedInCode` resources, which are
    /// `[UInt8]`), such as
    /// `PageRenderer(script: PackageResources.notes_page_js, style: PackageResources.notes_page_css)`. The bytes are
    /// UTF-8 (an invalid sequence reads as U+FFFD).
    public init(script: [UInt8], style: [UInt8] = []) {
        self.init(script: String(decoding: script, as: UTF8.self), style: String(decoding: style, as: UTF8.self))
    }
}
