/// `app.css`: phone-first, readable, no framework.
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
        main { display: grid; gap: 1rem; padding: 0 1rem 1rem; max-width: 48rem; margin: 0 auto; }
        @media (min-width: 60rem) { main { grid-template-columns: 1fr 1fr; max-width: 72rem; } }
        .card { background: var(--card); border-radius: .75rem; padding: 1rem; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
        .card h2 { margin: 0 0 .5rem; font-size: 1.125rem; display: flex; align-items: center; gap: .5rem; }
        .card h2 .grow { flex: 1; }
        button { font: inherit; padding: .45rem .8rem; border-radius: .5rem; border: 1px solid var(--accent);
          background: var(--accent); color: #fff; cursor: pointer; }
        button.secondary { background: transparent; color: var(--accent); }
        button:disabled { opacity: .5; cursor: not-allowed; }
        input { font: inherit; padding: .45rem .6rem; border-radius: .5rem; border: 1px solid #999; width: 100%;
          background: var(--card); color: var(--text); }
        input.invalid { background: #ffcccc; color: #111; }
        label { display: block; font-size: .875rem; color: var(--muted); margin: .5rem 0 .25rem; }
        .row { display: flex; gap: .5rem; align-items: center; }
        .row input { flex: 1; }
        .chats { list-style: none; margin: 0; padding: 0; }
        .chats li button { width: 100%; display: grid; grid-template-columns: 1fr auto; gap: .1rem .5rem; text-align: left;
          background: transparent; color: var(--text); border: 0; border-bottom: 1px solid rgba(127,127,127,.3);
          border-radius: 0; padding: .6rem .25rem; }
        .chats .contact { font-weight: 600; }
        .chats .date, .chats .preview { color: var(--muted); font-size: .875rem; }
        .unread { background: var(--error); color: #fff; border-radius: 1rem; padding: 0 .5rem; font-size: .8rem;
          justify-self: end; }
        .empty, .hint { color: var(--muted); }
        .error { color: var(--error); }
        .messages { list-style: none; margin: 0 0 .75rem; padding: 0; display: flex; flex-direction: column; gap: .4rem;
          max-height: 24rem; overflow-y: auto; }
        .messages li { max-width: 80%; padding: .4rem .65rem; border-radius: 1rem; }
        .messages li.user { align-self: flex-end; background: var(--bubble-user); color: #fff; }
        .messages li.other { align-self: flex-start; background: var(--bubble-other); }
        .messages .meta { display: flex; justify-content: space-between; gap: 1rem; font-size: .75rem; opacity: .8; }
        .spinner { display: inline-block; width: 1rem; height: 1rem; border: 2px solid var(--muted);
          border-top-color: transparent; border-radius: 50%; animation: spin 1s linear infinite; }
        @keyframes spin { to { transform: rotate(360deg); } }
        .banners { position: sticky; top: 0; z-index: 2; display: grid; gap: .25rem; padding: 0 1rem; }
        .banner { display: block; width: 100%; text-align: left; background: #323232; color: #fff; border: 0; }
        .weather-icon { font-size: 3rem; line-height: 1; }
        .weather .summary { white-space: pre-line; }
        .badge { background: var(--error); color: #fff; border-radius: 1rem; padding: 0 .5rem; font-size: .8rem; }
        footer { color: var(--muted); font-size: .8rem; text-align: center; padding: 1rem; }
        [hidden] { display: none !important; }

        """#
}
