import Foundation

/// The page at `/`: `Resources/index.html`, a shell that `app.js` fills from snapshots, a section per feature the
/// app serves, in its order (the page's script makes them from the names in `<main data-features>`). No inline
/// script or style, so the strict Content-Security-Policy holds.
enum WebPage {
    /// The page for `features` (their names are plain path segments, so they go into an attribute as they are).
    static func html(features: [String]) -> String {
        let names = features.joined(separator: " ")
        return String(decoding: WebAssets.page, as: UTF8.self)
            .replacingOccurrences(of: "data-features=\"FEATURES\"", with: "data-features=\"\(names)\"")
    }
}
