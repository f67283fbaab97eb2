/// `app.js`: creates (or resumes) a session, opens its event stream, and draws every feature from its snapshots.
/// It posts only the actions the snapshots carry, filling their `{param}` placeholders from the user's input, and
/// builds the DOM with `textContent` only (no HTML from data).
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
            for (const child of children.flat()) if (child !== null && child !== undefined && child !== false)
              node.append(child instanceof Node ? child : document.createTextNode(String(child)));
            return node;
          }

          // Posts an action exactly as the snapshot describes it, with `{param}` placeholders filled in.
          async function post(action, params = {}) {
            if (!action || action.enabled === false) return;
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
            } catch (error) {
              status("The server cannot be reached; retrying.");
            }
          }

          function render(feature, snapshot) {
            const previous = state.snapshots[feature];
            if (previous && previous.version > snapshot.version) return;
            state.snapshots[feature] = snapshot;
            const section = $(feature);
            if (!section) return;
            const renderer = { chat: renderChat, weather: renderWeather, login: renderLogin, person: renderPerson }[feature];
            if (!renderer) return;
            const focused = document.activeElement && section.contains(document.activeElement) ? document.activeElement.id : null;
            const inputs = {};
            section.querySelectorAll("input[id]").forEach((input) => { inputs[input.id] = input.value; });
            const nodes = renderer(snapshot, inputs).flat(Infinity).filter((node) => node !== null && node !== undefined && node !== false);
            section.replaceChildren(...nodes);
            section.hidden = false;
            if (focused && $(focused)) $(focused).focus();
          }

          // Chat: the screen on top of the navigation stack, drawn from its view model.
          function renderChat(s, inputs) {
            renderBanners(s);
            const top = s.navigation[s.navigation.length - 1];
            const back = s.navigation.length > 1
              ? el("button", { class: "secondary", "aria-label": "Back", onclick: () => post(s.actions.back) }, "‹ Back") : null;
            const badge = s.badge > 0 ? el("span", { class: "badge", "aria-label": `${s.badge} unread` }, s.badge) : null;
            if (top.screen === "createChat" && s.createChat) return renderCreateChat(s.createChat, back, badge, inputs);
            if (top.screen === "chat" && s.conversations[top.contact]) {
              return renderConversation(s.conversations[top.contact], back, badge, inputs);
            }
            return renderChatList(s.chatList, back, badge);
          }

          function renderChatList(list, back, badge) {
            const title = el("h2", {}, back, el("span", { id: "chat-title", class: "grow" }, list.title), badge,
              el("button", { "aria-label": "New chat", onclick: () => post(list.actions.addChat) }, "+"));
            const nodes = [title];
            if (list.showSpinner) nodes.push(el("p", {}, el("span", { class: "spinner", role: "progressbar", "aria-label": "Loading chats" })));
            if (!list.hideEmptyMessage) nodes.push(el("p", { class: "empty" }, list.emptyMessage));
            if (!list.hideChats) {
              nodes.push(el("ul", { class: "chats" }, list.chats.map((chat) => el("li", {},
                el("button", { "aria-label": `Open chat with ${chat.contact}`, onclick: () => post(chat.actions.itemTapped) },
                  el("span", { class: "contact" }, chat.contact),
                  chat.unreadMessageCount > 0
                    ? el("span", { class: "unread", "aria-label": `${chat.unreadMessageCount} unread` }, chat.unreadMessageCount)
                    : el("span"),
                  el("span", { class: "preview" }, chat.message),
                  el("span", { class: "date" }, chat.lastMessageDate))))));
            }
            return nodes;
          }

          function renderCreateChat(create, back, badge, inputs) {
            const submit = () => post(create.actions.create, { contact: $("create-contact").value });
            return [
              el("h2", {}, back, el("span", { id: "chat-title", class: "grow" }, create.title), badge),
              el("p", {}, create.introduction),
              el("label", { for: "create-contact" }, create.placeholder),
              el("div", { class: "row" },
                el("input", { id: "create-contact", placeholder: create.placeholder, value: inputs["create-contact"] ?? "",
                  autocomplete: "off", onkeydown: (event) => { if (event.key === "Enter") submit(); } }),
                create.showSpinner ? el("span", { class: "spinner", role: "progressbar", "aria-label": "Creating" }) : null,
                el("button", { id: "create-button", disabled: !create.enableCreate, onclick: submit }, create.createTitle)),
              create.hideError ? null : el("p", { class: "error", role: "alert" }, create.error),
            ];
          }

          function renderConversation(chat, back, badge, inputs) {
            const field = $("message-text");
            const keep = chat.shouldWipeMessage ? "" : (inputs["message-text"] ?? "");
            const send = () => {
              const text = $("message-text").value;
              post(chat.actions.send, { text });
            };
            const list = el("ul", { class: "messages", "aria-label": `Messages with ${chat.contact}` },
              chat.messages.map((message) => el("li", { class: message.sentBy },
                el("span", { class: "text" }, message.message),
                el("span", { class: "meta" },
                  el("span", { class: "send-status" }, message.sendStatus),
                  el("span", { class: "read-status", "aria-label": message.readStatus ? "read" : null }, message.readStatus)))));
            requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
            return [
              el("h2", {}, back, el("span", { id: "chat-title", class: "grow" }, chat.title), badge),
              chat.shouldShowEmpty && chat.messages.length === 0 ? el("p", { class: "empty" }, "No messages yet.") : null,
              list,
              chat.shouldShowError && chat.error ? el("p", { class: "error", role: "alert" }, chat.error) : null,
              el("label", { for: "message-text" }, chat.placeholder),
              el("div", { class: "row" },
                el("input", { id: "message-text", placeholder: chat.placeholder, value: keep, autocomplete: "off",
                  onkeydown: (event) => { if (event.key === "Enter") send(); } }),
                chat.shouldBeBusy ? el("span", { class: "spinner", role: "progressbar", "aria-label": "Sending" }) : null,
                el("button", { id: "send-button", disabled: chat.actions.send.enabled === false || chat.shouldBeBusy, onclick: send },
                  chat.sendTitle)),
            ];
          }

          function renderBanners(s) {
            $("banners").replaceChildren(...s.notifications.filter((n) => n.shown).slice(-3).map((n) =>
              el("button", { class: "banner", "aria-label": `Message from ${n.title}: ${n.body}`, onclick: () => post(n.actions.tap) },
                el("strong", {}, n.title), " ", n.body, " ", el("small", {}, n.subtitle))));
          }

          // Weather: the Grados card, its "Choose location" prompt from the action's own texts. The icon is drawn as
          // SVG (an emoji showed as an empty box on machines without an emoji font): a sun or moon, a cloud, and
          // what falls from it, by the Weatherbit code's first letter.
          const svgNS = "http://www.w3.org/2000/svg";
          function svg(tag, attributes) {
            const node = document.createElementNS(svgNS, tag);
            for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
            return node;
          }
          function iconFor(code) {
            const image = svg("svg", { viewBox: "0 0 64 64", width: 64, height: 64, "aria-hidden": "true" });
            const clear = code.startsWith("c01"), partly = code.startsWith("c02") || code.startsWith("c03");
            if (clear || partly) {
              const night = code.endsWith("n");
              const [cx, cy, r] = clear ? [32, 32, 14] : [22, 22, 10];
              image.append(svg("circle", { cx, cy, r, fill: night ? "#8a94b8" : "#f5b400" }));
              if (!night) for (let i = 0; i < 8; i++) {
                const a = (i * Math.PI) / 4, x = Math.cos(a), y = Math.sin(a);
                image.append(svg("line", { x1: cx + x * (r + 3), y1: cy + y * (r + 3), x2: cx + x * (r + 8), y2: cy + y * (r + 8),
                  stroke: "#f5b400", "stroke-width": 3, "stroke-linecap": "round" }));
              }
              if (clear) return image;
            }
            image.append(svg("path", { d: "M18 46h30a10 10 0 0 0 0-20 14 14 0 0 0-27-3 9 9 0 0 0-3 23z",
              fill: code[0] === "t" ? "#6b7280" : "#c9d1db", stroke: "#8a94a6", "stroke-width": 2 }));
            const below = (f) => [16, 28, 40].forEach((x, i) => image.append(f(x + 4, 52 + (i % 2) * 4)));
            switch (code[0]) {
              case "t":
                image.append(svg("polyline", { points: "34,46 28,56 34,56 29,63", fill: "none", stroke: "#f5b400", "stroke-width": 3 }));
                break;
              case "d": case "r": case "u":
                below((x, y) => svg("line", { x1: x, y1: y - 3, x2: x - 3, y2: y + 5, stroke: "#2f6fd6", "stroke-width": 3, "stroke-linecap": "round" }));
                break;
              case "s": case "f":
                below((x, y) => svg("circle", { cx: x, cy: y + 2, r: 2.5, fill: "#7aa7e0" }));
                break;
              case "a":
                [50, 56, 62].forEach((y) => image.append(svg("line", { x1: 12, y1: y, x2: 52, y2: y, stroke: "#9aa3ad", "stroke-width": 3 })));
                break;
            }
            return image;
          }

          function renderWeather(w, inputs) {
            const action = w.actions.changeLocation;
            const submit = () => post(action, { location: $("weather-location").value });
            return [
              el("h2", { id: "weather-title" }, "Weather"),
              el("div", { class: "weather" },
                el("p", { class: "location", "aria-label": "Location" }, el("strong", {}, w.locationName)),
                el("p", { class: "date" }, w.date),
                w.icon ? el("p", { class: "weather-icon", role: "img", "aria-label": `Icon ${w.icon}` }, iconFor(w.icon)) : null,
                el("p", { class: "summary" }, w.summary),
                el("p", { class: "summary forecast" }, w.forecastSummary),
                w.error ? el("p", { class: "error", role: "alert" }, w.error) : null,
                el("p", { class: "hint" }, `Provider: ${w.provider}${w.provider === "offline" ? " (simulated, not a real observation)" : ""} · ${w.status}`)),
              el("label", { for: "weather-location" }, action.prompt ? action.prompt.title : "Location"),
              el("div", { class: "row" },
                el("input", { id: "weather-location", placeholder: "City, region", value: inputs["weather-location"] ?? "",
                  onkeydown: (event) => { if (event.key === "Enter") submit(); } }),
                el("button", { id: "weather-submit", onclick: submit }, action.prompt ? action.prompt.submit : "Submit")),
            ];
          }

          // Login: every edit is posted, as the original sends on every change.
          let typingTimer = null;
          function debounce(work) { clearTimeout(typingTimer); typingTimer = setTimeout(work, 150); }

          function renderLogin(l, inputs) {
            return [
              el("h2", { id: "login-title" }, "Login"),
              el("label", { for: "login-username" }, l.labels.username),
              el("input", { id: "login-username", class: l.usernameValid ? "" : "invalid", placeholder: l.labels.usernamePlaceholder,
                value: inputs["login-username"] ?? l.username, autocomplete: "username",
                oninput: (event) => debounce(() => post(l.actions.setUsername, { value: event.target.value })) }),
              el("label", { for: "login-password" }, l.labels.password),
              el("input", { id: "login-password", type: "password", class: l.passwordValid ? "" : "invalid",
                placeholder: l.labels.passwordPlaceholder, value: inputs["login-password"] ?? "", autocomplete: "current-password",
                "aria-describedby": "login-instruction",
                oninput: (event) => debounce(() => post(l.actions.setPassword, { value: event.target.value })) }),
              el("p", { id: "login-instruction", class: l.instructionKey === "login.succeeded" ? "" : "error", role: "status" },
                l.instruction),
              el("button", { id: "login-button", disabled: !l.loginEnabled, onclick: () => post(l.actions.login) }, l.labels.login),
            ];
          }

          function renderPerson(p, inputs) {
            const field = (id, label, value, type = "text") => [
              el("label", { for: id }, label),
              el("input", { id, type, value: inputs[id] ?? value ?? "" }),
            ];
            const save = () => post(p.actions.setPerson, {
              salutation: $("person-salutation").value, firstName: $("person-first").value,
              lastName: $("person-last").value, birthdate: $("person-birthdate").value,
            });
            return [
              el("h2", { id: "person-title" }, "Person"),
              el("p", {}, el("strong", { id: "person-name" }, p.nameText)),
              el("p", { id: "person-birthdate-text" }, p.birthdateText),
              field("person-salutation", "Salutation", p.salutation),
              field("person-first", "First name", p.firstName),
              field("person-last", "Last name", p.lastName),
              field("person-birthdate", "Birthdate", p.birthdate ? p.birthdate.slice(0, 10) : "", "date"),
              el("p", {}, el("button", { id: "person-save", onclick: save }, "Save")),
            ];
          }

          function connect() {
            if (state.source) state.source.close();
            const source = new EventSource(`/v1/sessions/${state.id}/stream`);
            state.source = source;
            for (const feature of ["chat", "weather", "login", "person"]) {
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
          start().catch(() => status("The server cannot be reached."));
        })();

        """#
}
