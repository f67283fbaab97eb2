/// `app.css`, the library's part: phone-first, readable, no framework; the generic drawing of a feature (a definition
/// list of its values, its actions as buttons and small forms). A feature's ``PageRenderer`` style follows it.
enum WebStyle {
    static let css = #"""
        :root { --accent: #0a66c2; --muted: #666; --bubble-user: #0a66c2; --bubble-other: #e9e9eb; --error: #c62828;
          --card: #fff; --page: #f3f4f6; --text: #111; }
        @media (prefers-color-scheme: dark) { :root { --card: #1e1e1e; --page: #121212; --text: #eee; --muted: #aaa;
          --bubble-other: #333; } }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--page);
          color: var(--text); }
        .top { display: flex; align-items: baseline; justify-content: space-between; padding: .75rem 1rem; }
        .top h1 { margin: 0; font-size: 1.25rem; }
        #status { margin: 0; color: var(--muted); font-size: .875rem; }
        main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; padding: 0 1rem 1rem; max-width: 48rem;
          margin: 0 auto; }
        @media (min-width: 60rem) { main { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); max-width: 72rem; } }
        .card { background: var(--card); border-radius: .75rem; padding: 1rem; box-shadow: 0 1px 3px rgba(0,0,0,.15);
          min-width: 0; overflow-wrap: anywhere; }
        /* Text from snapshots is isolated: a right-to-left override in a name or a message reorders only itself,
           never the text beside it (Unicode bidi isolation, as <bdi> does). */
        .card :where(h2, h3, p, span, strong, em, b, small, li, dt, dd, label, output, button, a, div) { unicode-bidi: isolate; }
        .card input { unicode-bidi: plaintext; }
        .card h2 { margin: 0 0 .5rem; font-size: 1.125rem; display: flex; align-items: center; gap: .5rem; }
        .card h2 .grow { flex: 1; }
        button { font: inherit; padding: .45rem .8rem; border-radius: .5rem; border: 1px solid var(--accent);
          background: var(--accent); color: #fff; cursor: pointer; }
        button.secondary { background: transparent; color: var(--accent); }
        button:disabled { opacity: .5; cursor: not-allowed; }
        input { font: inherit; padding: .45rem .6rem; border-radius: .5rem; border: 1px solid #999; width: 100%;
          background: var(--card); color: var(--text); }
        label { display: block; font-size: .875rem; color: var(--muted); margin: .5rem 0 .25rem; }
        .row { display: flex; gap: .5rem; align-items: center; }
        .row input { flex: 1; }
        .empty, .hint { color: var(--muted); }
        .error { color: var(--error); }
        .spinner { display: inline-block; width: 1rem; height: 1rem; border: 2px solid var(--muted);
          border-top-color: transparent; border-radius: 50%; animation: spin 1s linear infinite; }
        @keyframes spin { to { transform: rotate(360deg); } }
        .banners { position: sticky; top: 0; z-index: 2; display: grid; gap: .25rem; padding: 0 1rem; }
        dl.generic { display: grid; grid-template-columns: minmax(6rem, auto) 1fr; gap: .25rem .75rem; margin: 0 0 .5rem; }
        dl.generic dt { color: var(--muted); font-size: .875rem; }
        dl.generic dd { margin: 0; overflow-wrap: anywhere; }
        ul.generic { margin: 0; padding-left: 1.1rem; }
        .actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-end; margin-top: .5rem; }
        fieldset.action { border: 1px solid rgba(127,127,127,.35); border-radius: .5rem; padding: .25rem .6rem .6rem;
          margin: 0; min-width: 12rem; }
        fieldset.action button { margin-top: .5rem; }
        .history { display: grid; grid-template-columns: auto 1fr; gap: .25rem .75rem; align-items: center; margin-top: .75rem;
          padding-top: .5rem; border-top: 1px solid rgba(127,127,127,.3); font-size: .875rem; }
        .history label { margin: 0; }
        .history input[type=range] { padding: 0; border: 0; accent-color: var(--accent); }
        .history output { grid-column: 1 / -1; color: var(--muted); }
        .history button { grid-column: 1 / -1; justify-self: start; }
        .card.past > :not(.history) { opacity: .55; }
        .card.past .history output { color: var(--error); font-weight: 600; }
        footer { color: var(--muted); font-size: .8rem; text-align: center; padding: 1rem; }
        [hidden] { display: none !important; }

        """#
}
