import Foundation

/// The page at `/`: a shell that `app.js` fills from snapshots, with one section per feature the app serves, in
/// its order. No inline script or style, so the strict Content-Security-Policy holds.
enum WebPage {
    /// The page for `features` (their names are plain path segments, so they are plain HTML ids too).
    static func html(features: [String]) -> String {
        let sections = features.map { name in
            "    <section id=\"\(name)\" class=\"card\" aria-labelledby=\"\(name)-title\" hidden></section>"
        }
        return template.replacingOccurrences(of: "    <!-- sections -->", with: sections.joined(separator: "\n"))
    }

    private static let template = #"""
        <!doctype html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <meta name="viewport" content="width=device-width, initial-scale=1">
          <meta name="color-scheme" content="light dark">
          <title>ViewHost</title>
          <link rel="icon" href="data:,">
          <link rel="stylesheet" href="/app.css">
          <script src="/app.js" defer></script>
        </head>
        <body>
          <header class="top">
            <h1>ViewHost</h1>
            <p id="status" role="status" aria-live="polite">Connecting…</p>
          </header>
          <div id="banners" class="banners" aria-live="polite" aria-label="Notifications"></div>
          <main id="features">
            <!-- sections -->
          </main>
          <footer class="bottom">
            <p>Every screen here is drawn from the server's view-model snapshots and posts only their actions.
              <a href="/openapi.json">API</a></p>
          </footer>
        </body>
        </html>

        """#
}
