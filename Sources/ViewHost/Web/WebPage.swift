/// The page at `/`: a shell that `app.js` fills from snapshots. No inline script or style, so the strict
/// Content-Security-Policy holds.
enum WebPage {
    static let html = #"""
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
            <section id="chat" class="card" aria-labelledby="chat-title" hidden></section>
            <section id="weather" class="card" aria-labelledby="weather-title" hidden></section>
            <section id="login" class="card" aria-labelledby="login-title" hidden></section>
            <section id="person" class="card" aria-labelledby="person-title" hidden></section>
          </main>
          <footer class="bottom">
            <p>Every screen here is drawn from the server's view-model snapshots and posts only their actions.
              <a href="/openapi.json">API</a></p>
          </footer>
        </body>
        </html>

        """#
}
