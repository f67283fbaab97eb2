import { el, isAction, placeholders, words } from "./dom.mjs";
const $ = (id) => document.getElementById(id);
/** The helpers, posting with `post`. */
export function makeUI(post) {
    const status = (text) => {
        const line = $("status");
        if (line)
            line.textContent = text;
    };
    const actionButton = (action, label, attributes = {}) => el("button", { ...attributes, disabled: action.enabled === false, onclick: () => post(action) }, label);
    // A button for an action without placeholders; otherwise one input per placeholder and a submit button.
    let forms = 0;
    function actionForm(action, name, inputs = {}, key = `form${++forms}`) {
        const params = [...new Set(placeholders(action))];
        if (params.length === 0)
            return actionButton(action, words(name));
        const ids = params.map((param) => `vh-${key}-${param}`);
        const valueOf = (id) => $(id)?.value ?? "";
        // What was typed is cleared once the server took it (and kept, to correct, when it refused it).
        const submit = async () => {
            if (await post(action, Object.fromEntries(params.map((param, i) => [param, valueOf(ids[i] ?? "")])))) {
                ids.forEach((id) => { const input = $(id); if (input)
                    input.value = ""; });
            }
        };
        return el("fieldset", { class: "action" }, el("legend", {}, action.prompt?.title ?? words(name)), params.map((param, i) => [
            el("label", { for: ids[i] }, words(param)),
            el("input", { id: ids[i], value: inputs[ids[i] ?? ""] ?? "", autocomplete: "off",
                onkeydown: (event) => { if (event.key === "Enter")
                    void submit(); } }),
        ]), el("button", { disabled: action.enabled === false, onclick: submit }, action.prompt?.submit ?? words(name)));
    }
    // Any JSON value of a snapshot: text, a list, or a definition list whose actions become buttons and forms.
    function value(item, inputs, key) {
        if (item === null || item === undefined)
            return el("span", { class: "empty" }, "–");
        if (Array.isArray(item)) {
            if (item.length === 0)
                return el("span", { class: "empty" }, "none");
            return el("ul", { class: "generic" }, item.map((entry, i) => el("li", {}, value(entry, inputs, `${key}-${i}`))));
        }
        if (isAction(item))
            return actionForm(item, item.body.type, inputs, key);
        if (typeof item === "object") {
            const record = item;
            const entries = Object.entries(record).filter(([name]) => name !== "actions");
            const actions = record.actions && typeof record.actions === "object"
                ? Object.entries(record.actions).filter((entry) => isAction(entry[1]))
                : [];
            return [
                el("dl", { class: "generic" }, entries.map(([name, entry]) => [
                    el("dt", {}, words(name)), el("dd", {}, value(entry, inputs, `${key}-${name}`))
                ])),
                actions.length ? el("div", { class: "actions" }, actions.map(([name, action]) => actionForm(action, name, inputs, `${key}-${name}`))) : null,
            ];
        }
        return String(item);
    }
    function generic(snapshot, inputs = {}) {
        const feature = snapshot.feature;
        const rest = Object.fromEntries(Object.entries(snapshot).filter(([name]) => name !== "feature" && name !== "version"));
        return [el("h2", { id: `${feature}-title` }, words(feature)), value(rest, inputs, feature)];
    }
    const banners = (list) => $("banners")?.replaceChildren(...list);
    return { renderers: {}, el, post, status, actionButton, actionForm, generic, banners, words };
}
