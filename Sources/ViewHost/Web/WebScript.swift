/// `app.js`, the library's part: creates (or resumes) a session, opens its event stream, and draws every feature
/// section of the page from its snapshots. A feature with a ``PageRenderer`` draws itself (its script, appended to
/// this one, registers `ViewHost.renderers[name]`); any other is drawn generically: its values, lists and nested
/// view models as a definition list, and each action it offers as a button, or as a small form when the action's
/// body has `{param}` placeholders (titled by the action's `prompt`). It posts only the actions the snapshots carry,
/// filling their placeholders from the user's input, and builds the DOM with `textContent` only (no HTML from
/// data). The stream sends patches after each feature's first snapshot (`?patches=1`): each is applied to the
/// snapshot held when it is the patch's base, checked against its version, and the whole snapshot read on any
/// mismatch. Under each feature a history slider moves over the versions the server holds (`/versions`,
/// `?version=N`); while it shows the past, the feature is read-only (inert, and nothing of it is posted) and says so.
enum WebScript {
    static let javascript = #"""
        "use strict";
        (() => {
          // history[feature]: { oldest, viewing: { version, snapshot } | null, asked } (the slider's state).
          const state = { id: null, snapshots: {}, source: null, history: {}, patches: 0, refetched: 0 };
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
            const target = /\/v1\/sessions\/[^/]+\/([^/]+)\/events$/.exec(action.href || "");
            if (target && state.history[target[1]]?.viewing) {
              status(`${words(target[1])} shows a past version: it is read-only. Go back to live to act.`);
              return false;
            }
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

          // The newest snapshot of a feature: drawn, unless its slider shows the past (then only the slider moves on).
          function render(feature, snapshot) {
            const previous = state.snapshots[feature];
            if (previous && previous.version > snapshot.version) return;
            state.snapshots[feature] = snapshot;
            if (history(feature).viewing) { updateBar(feature); return; }
            draw(feature, snapshot);
          }

          // Draws `snapshot` in the feature's section above its history slider (which stays in place, so a drag
          // goes on); a past one read-only.
          function draw(feature, snapshot, past = false) {
            const section = $(feature);
            if (!section) return;
            const renderer = ViewHost.renderers[feature] || ((s, inputs, ui) => ui.generic(s, inputs));
            const focused = document.activeElement && section.contains(document.activeElement) ? document.activeElement.id : null;
            const inputs = {};
            section.querySelectorAll("input[id]").forEach((input) => { inputs[input.id] = input.value; });
            const nodes = [renderer(snapshot, inputs, ViewHost)].flat(Infinity)
              .filter((node) => node !== null && node !== undefined && node !== false);
            const bar = section.querySelector(":scope > .history") || historyBar(feature);
            for (const child of [...section.children]) if (child !== bar) child.remove();
            section.prepend(...nodes);
            if (!bar.parentNode) section.append(bar);
            for (const node of nodes) if (node instanceof Element) node.inert = past;
            section.classList.toggle("past", past);
            updateBar(feature);
            section.hidden = false;
            if (focused && $(focused) && !past) $(focused).focus();
          }

          // MARK: History

          const history = (feature) => state.history[feature] || (state.history[feature] = { oldest: null, viewing: null, asked: 0 });

          function historyBar(feature) {
            const id = `vh-history-${feature}`;
            let timer = null;
            return el("div", { class: "history", role: "group", "aria-label": `History of ${words(feature)}` },
              el("label", { for: id }, "History"),
              el("input", { id, type: "range", min: 1, max: 1, step: 1, value: 1,
                onfocus: loadHistory, onpointerdown: loadHistory,
                oninput: (event) => {
                  clearTimeout(timer);
                  const version = Number(event.target.value);
                  timer = setTimeout(() => seek(feature, version), 60);
                } }),
              el("output", { id: `${id}-label`, for: id }),
              el("button", { class: "secondary", id: `${id}-live`, hidden: true, onclick: () => live(feature) }, "Back to live"));
          }

          // The slider's bounds, place and words from the state (without replacing it: a drag goes on).
          function updateBar(feature) {
            const id = `vh-history-${feature}`;
            const slider = $(id);
            if (!slider) return;
            const h = history(feature);
            const latest = state.snapshots[feature]?.version ?? 1;
            const oldest = Math.min(h.oldest ?? latest, latest);
            slider.min = String(oldest);
            slider.max = String(latest);
            if (!h.viewing) slider.value = String(latest);
            slider.disabled = oldest >= latest && !h.viewing;
            const text = h.viewing
              ? `Version ${h.viewing.version} of ${latest}: the past, read-only`
              : `Version ${latest} (live)`;
            slider.setAttribute("aria-valuetext", text);
            $(`${id}-label`).textContent = text;
            $(`${id}-live`).hidden = !h.viewing;
          }

          // The oldest version the server holds of each feature (it moves on as history is compacted).
          async function loadHistory() {
            try {
              const response = await fetch(`/v1/sessions/${state.id}/versions`, { credentials: "same-origin" });
              if (!response.ok) return;
              const list = await response.json();
              for (const [feature, range] of Object.entries(list.features || {})) {
                history(feature).oldest = range.oldest;
                updateBar(feature);
              }
            } catch (error) { /* the slider keeps its bounds */ }
          }

          // Shows `version` of the feature: the live one at the newest, else the past as the server served it.
          async function seek(feature, version) {
            const h = history(feature);
            const latest = state.snapshots[feature]?.version ?? 1;
            if (version >= latest) { live(feature); return; }
            const asked = ++h.asked;
            const response = await fetch(`/v1/sessions/${state.id}/${feature}?version=${version}`, { credentials: "same-origin" })
              .catch(() => null);
            if (asked !== h.asked) return;  // the slider moved on meanwhile
            if (!response || !response.ok) {
              const problem = response ? await response.json().catch(() => ({})) : {};
              if (problem.oldestVersion) h.oldest = problem.oldestVersion;
              status(problem.detail || "That version cannot be read now.");
              updateBar(feature);
              return;
            }
            h.viewing = { version, snapshot: await response.json() };
            draw(feature, h.viewing.snapshot, true);
          }

          function live(feature) {
            const h = history(feature);
            h.asked++;
            h.viewing = null;
            if (state.snapshots[feature]) draw(feature, state.snapshots[feature]);
          }

          // MARK: Patches (RFC 6902)

          function applyPatch(document, operations) {
            const tokens = (pointer) => pointer === "" ? []
              : pointer.slice(1).split("/").map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
            const parentOf = (root, pointer) => {
              const path = tokens(pointer);
              const last = path.pop();
              let node = root;
              for (const token of path) {
                if (node === null || typeof node !== "object" || !(token in node)) throw new Error(`no ${pointer}`);
                node = node[token];
              }
              if (node === null || typeof node !== "object") throw new Error(`no ${pointer}`);
              return [node, last];
            };
            const get = (root, pointer) => {
              if (pointer === "") return root;
              const [parent, key] = parentOf(root, pointer);
              if (!(key in parent)) throw new Error(`no ${pointer}`);
              return parent[key];
            };
            const index = (array, key, end) => {
              const at = key === "-" ? array.length : Number(key);
              if (!/^(0|[1-9][0-9]*|-)$/.test(key) || at > array.length || (!end && at === array.length)) throw new Error(`bad index ${key}`);
              return at;
            };
            const add = (root, pointer, value) => {
              if (pointer === "") return value;
              const [parent, key] = parentOf(root, pointer);
              if (Array.isArray(parent)) parent.splice(index(parent, key, true), 0, value); else parent[key] = value;
              return root;
            };
            const remove = (root, pointer) => {
              const [parent, key] = parentOf(root, pointer);
              if (Array.isArray(parent)) parent.splice(index(parent, key, false), 1);
              else if (key in parent) delete parent[key]; else throw new Error(`no ${pointer}`);
              return root;
            };
            let result = structuredClone(document);
            for (const op of operations) {
              switch (op.op) {
                case "add": result = add(result, op.path, structuredClone(op.value)); break;
                case "remove": result = remove(result, op.path); break;
                case "replace": get(result, op.path); result = add(remove(result, op.path), op.path, structuredClone(op.value)); break;
                case "move": { const value = get(result, op.from); result = add(remove(result, op.from), op.path, value); break; }
                case "copy": result = add(result, op.path, structuredClone(get(result, op.from))); break;
                case "test": if (JSON.stringify(get(result, op.path)) !== JSON.stringify(op.value)) throw new Error(`test ${op.path}`); break;
                default: throw new Error(`op ${op.op}`);
              }
            }
            return result;
          }

          // A `FEATURE.patch` event: applied to the snapshot held when that is its base and the result its version;
          // otherwise (a version missed) the whole snapshot is read.
          async function patched(feature, data) {
            const held = state.snapshots[feature];
            if (held && held.version === data.base) {
              try {
                const snapshot = applyPatch(held, data.patch);
                if (snapshot.version === data.version) { state.patches++; render(feature, snapshot); return; }
              } catch (error) { /* read the whole snapshot */ }
            }
            state.refetched++;
            const response = await fetch(`/v1/sessions/${state.id}/${feature}`, { credentials: "same-origin" }).catch(() => null);
            if (response && response.ok) render(feature, await response.json());
          }

          function connect() {
            if (state.source) state.source.close();
            const source = new EventSource(`/v1/sessions/${state.id}/stream?patches=1`);
            state.source = source;
            for (const section of document.querySelectorAll("#features > section")) {
              const feature = section.id;
              source.addEventListener(feature, (event) => render(feature, JSON.parse(event.data)));
              source.addEventListener(`${feature}.patch`, (event) => patched(feature, JSON.parse(event.data)));
            }
            source.onopen = () => { status("Live"); loadHistory(); };
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
