import { inputOf } from "../client/action.mjs";
import { el, placeholders, words } from "./dom.mjs";
import { GenericDrawing } from "./generic.mjs";
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
        return el("fieldset", { class: "action" }, el("legend", {}, action.prompt?.title ?? words(name)), params.map((param, i) => {
            // A typed placeholder (the action's `inputs`): a number field, or the values it takes offered as a list.
            const input = inputOf(action, param);
            const values = input.enum ?? (input.type === "boolean" ? ["true", "false"] : undefined);
            const numeric = input.type === "integer" || input.type === "number";
            return [
                el("label", { for: ids[i] }, words(param)),
                el("input", { id: ids[i], value: inputs[ids[i] ?? ""] ?? "", autocomplete: "off",
                    type: numeric ? "number" : undefined, step: input.type === "integer" ? "1" : numeric ? "any" : undefined,
                    list: values ? `${ids[i]}-values` : undefined,
                    onkeydown: (event) => { if (event.key === "Enter")
                        void submit(); } }),
                values ? el("datalist", { id: `${ids[i]}-values` }, values.map((value) => el("option", { value }))) : null,
            ];
        }), el("button", { disabled: action.enabled === false, onclick: submit }, action.prompt?.submit ?? words(name)));
    }
    const drawing = new GenericDrawing(post);
    const generic = (snapshot, inputs = {}) => drawing.draw(snapshot, inputs);
    const banners = (list) => $("banners")?.replaceChildren(...list);
    const viewer = () => ({ id: null, names: {} });
    return { renderers: {}, el, post, status, actionButton, actionForm, generic, viewer, banners, words };
}
