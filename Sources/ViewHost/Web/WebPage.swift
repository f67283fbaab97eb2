import Foundation

/// The page at `/`: `Resources/index.html`, a shell that `app.js` fills from snapshots, a section per feature the
/// app serves, in its order (the page's script makes them from the names in `<main data-features>`), and the names
/// of those that take contacts in `<main data-contacts>` (the page offers its People card, to invite someone and
/// redeem a code, when there is one), and of those that can be shared in `<main data-shared>` (the page offers its
/// Participants card, with an invite link for the owner, and joins by such a link, when there is one). No inline
/// script or style, so the strict Content-Security-Policy holds.
enum WebPage {
    /// The page for `features`, of which `contacts` take contacts and `shared` can be shared (names are plain path
    /// segments, so they go into an attribute as they are).
    static func html(features: [String], contacts: [String], shared: [String] = []) -> String {
        String(decoding: WebAssets.page, as: UTF8.self)
            .replacingOccurrences(
                of: "data-features=\"FEATURES\"", with: "data-features=\"\(features.joined(separator: " "))\""
            )
            .replacingOccurrences(
                of: "data-contacts=\"CONTACTS\"", with: "data-contacts=\"\(contacts.joined(separator: " "))\""
            )
            .replacingOccurrences(
                of: "data-shared=\"SHARED\"", with: "data-shared=\"\(shared.joined(separator: " "))\"")
    }
}
