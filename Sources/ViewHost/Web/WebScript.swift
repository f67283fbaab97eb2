/// `app.js`, the library's part: creates (or resumes) a session, opens its event stream, and draws every feature
/// section of the page from its snapshots. A feature with a ``PageRenderer`` draws itself (its script, appended to
/// this one, registers `ViewHost.renderers[name]`); any other is drawn generically: its values, lists and nested
/// view models as a definition list, and each action it offers as a button, or as a small form when the action's
/// body has `{param}` placeholders (titled by the action's `prompt`). It posts only the actions the snapshots carry,
/// filling their placeholders from the user's input, and builds the DOM with `textContent` only (no HTML from
/// data).
enum WebScript {
    static let javascript = #"""
        "use strict";
        (() => {
          const state = { id: null, snapshots: {}, source: null };
          const $ = (id) => document.getElementById(id);
          const status = (text) => { $("status").textContent = text; };

          function el(tag, attributes = {}, ...children) {
            const node = document.createElement(tag);
            for (const [key, value] of Object.entries(attributes)) {
              if (value === undefined || value === null || value === false) continue;
              if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
              else if (key === "text") node.textContent = value;
              else node.setAttribute(key, value === true ? "" : String(value));
            }
            for (const child of children.flat(Infinity)) if (child !== null && child !== undefined && child !== false)
              node.append(child instanceof Node ? child : document.createTextNode(String(child)));
            return node;
          }

          // Posts an action exactly as the snapshot describes it, with `{param}` placeholders filled in; true once the
          // server accepted it.
          async function post(action, params = {}) {
            if (!action || action.enabled === false) return false;
            const body = {};
            for (const [key, value] of Object.entries(action.body)) {
              body[key] = typeof value === "string" ? value.replace(/\{(\w+)\}/g, (_, name) => params[name] ?? "") : value;
            }
            try {
              const response = await fetch(action.href, {
                method: action.method, credentials: "same-origin",
                headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
              });
              if (!response.ok) {
                const problem = await response.json().catch(() => ({}));
                status(problem.detail || `The server answered ${response.status}.`);
              }
              return response.ok;
            } catch (error) {
              status("The server cannot be reached; retrying.");
              return false;
            }
          }

          // "changeLocation" → "Change location"; "firstName" → "First name".
          const words = (name) => {
            const spaced = String(name).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[-_]/g, " ").toLowerCase();
            return spaced.charAt(0).toUpperCase() + spaced.slice(1);
          };
          const isAction = (value) => value !== null && typeof value === "object" && typeof value.href === "string"
            && typeof value.method === "string" && value.body && typeof value.body.type === "string";
          const placeholders = (action) => Object.values(action.body).flatMap((value) =>
            typeof value === "string" ? [...value.matchAll(/\{(\w+)\}/g)].map((match) => match[1]) : []);

          function actionButton(action, label, attributes = {}) {
            return el("button", { ...attributes, disabled: action.enabled === false, onclick: () => post(action) }, label);
          }

          // A button for an action without placeholders; otherwise one input per placeholder and a submit button.
          let forms = 0;
          function actionForm(action, name, inputs = {}, key = `form${++forms}`) {
            const params = [...new Set(placeholders(action))];
            if (params.length === 0) return actionButton(action, words(name));
            const ids = params.map((param) => `vh-${key}-${param}`);
            // What was typed is cleared once the server took it (and kept, to correct, when it refused it).
            const submit = async () => {
              if (await post(action, Object.fromEntries(params.map((param, i) => [param, $(ids[i]).value])))) {
                ids.forEach((id) => { if ($(id)) $(id).value = ""; });
              }
            };
            return el("fieldset", { class: "action" },
              el("legend", {}, action.prompt ? action.prompt.title : words(name)),
              params.map((param, i) => [
                el("label", { for: ids[i] }, words(param)),
                el("input", { id: ids[i], value: inputs[ids[i]] ?? "", autocomplete: "off",
                  onkeydown: (event) => { if (event.key === "Enter") submit(); } }),
              ]),
              el("button", { disabled: action.enabled === false, onclick: submit },
                action.prompt ? action.prompt.submit : words(name)));
          }

          // Any JSON value of a snapshot: text, a list, or a definition list whose actions become buttons and forms.
          function value(item, inputs, key) {
            if (item === null || item === undefined) return el("span", { class: "empty" }, "–");
            if (Array.isArray(item)) {
              if (item.length === 0) return el("span", { class: "empty" }, "none");
              return el("ul", { class: "generic" }, item.map((entry, i) => el("li", {}, value(entry, inputs, `${key}-${i}`))));
            }
            if (isAction(item)) return actionForm(item, item.body.type, inputs, key);
            if (typeof item === "object") {
              const entries = Object.entries(item).filter(([name]) => name !== "actions");
              const actions = item.actions && typeof item.actions === "object" ? Object.entries(item.actions) : [];
              return [
                el("dl", { class: "generic" }, entries.map(([name, entry]) => [
                  el("dt", {}, words(name)), el("dd", {}, value(entry, inputs, `${key}-${name}`))])),
                actions.length ? el("div", { class: "actions" },
                  actions.map(([name, action]) => actionForm(action, name, inputs, `${key}-${name}`))) : null,
              ];
            }
            return String(item);
          }

          // The generic drawing of a feature's whole snapshot: its title, its values, then its actions.
          function generic(snapshot, inputs = {}) {
            const feature = snapshot.feature;
            const rest = Object.fromEntries(Object.entries(snapshot).filter(([name]) => name !== "feature" && name !== "version"));
            return [el("h2", { id: `${feature}-title` }, words(feature)), value(rest, inputs, feature)];
          }

          // Transient notices any renderer may show above the features (the chat's push banners).
          const banners = (nodes) => $("banners").replaceChildren(...nodes);

          const ViewHost = { renderers: {}, el, post, status, actionButton, actionForm, generic, banners, words };
          window.ViewHost = ViewHost;

          function render(feature, snapshot) {
            const previous = state.snapshots[feature];
            if (previous && previous.version > snapshot.version) return;
            state.snapshots[feature] = snapshot;
            const section = $(feature);
            if (!section) return;
            const renderer = ViewHost.renderers[feature] || ((s, inputs, ui) => ui.generic(s, inputs));
            const focused = document.activeElement && section.contains(document.activeElement) ? document.activeElement.id : null;
            const inputs = {};
            section.querySelectorAll("input[id]").forEach((input) => { inputs[input.id] = input.value; });
            const nodes = [renderer(snapshot, inputs, ViewHost)].flat(Infinity)
              .filter((node) => node !== null && node !== undefined && node !== false);
            section.replaceChildren(...nodes);
            section.hidden = false;
            if (focused && $(focused)) $(focused).focus();
          }

          function connect() {
            if (state.source) state.source.close();
            const source = new EventSource(`/v1/sessions/${state.id}/stream`);
            state.source = source;
            for (const section of document.querySelectorAll("#features > section")) {
              const feature = section.id;
              source.addEventListener(feature, (event) => render(feature, JSON.parse(event.data)));
            }
            source.onopen = () => status("Live");
            source.onerror = () => status("Reconnecting…");
          }

          async function start() {
            const saved = sessionStorage.getItem("viewhost.session");
            if (saved) {
              const response = await fetch(`/v1/sessions/${saved}`, { credentials: "same-origin" });
              if (response.ok) { state.id = saved; connect(); return; }
            }
            const response = await fetch("/v1/sessions", { method: "POST", credentials: "same-origin" });
            if (!response.ok) { status(`Cannot create a session (${response.status}).`); return; }
            const session = await response.json();
            state.id = session.id;
            sessionStorage.setItem("viewhost.session", session.id);
            connect();
          }

          window.viewhost = state;  // for tests and the curious
          // Features' renderers register in the scripts that follow this one: start once they all ran.
          document.addEventListener("DOMContentLoaded", () => start().catch(() => status("The server cannot be reached.")));
        })();

        """#
}
