import type { Action, Snapshot } from "../client/types.mjs";
import { inputOf } from "../client/action.mjs";
import { el, placeholders, words, type Child } from "./dom.mjs";
import { GenericDrawing } from "./generic.mjs";

/** A feature's drawing: its snapshot, the values of its section's inputs by id (typing survives a redraw) and the
 * page's helpers in, the section's nodes out. (A method's parameters are bivariant: a renderer may take its own
 * feature's snapshot type.) */
export type Renderer = { draw(snapshot: Snapshot, inputs: Record<string, string>, ui: PageUI): Child }["draw"];

/** What the page offers the features' renderers, as `window.ViewHost`. */
export interface PageUI {
  /** feature → its renderer; a feature without one is drawn generically. */
  renderers: Record<string, Renderer>;
  el: typeof el;
  /** Posts an action exactly as the snapshot describes it, its `{param}` placeholders filled from `params`; true
   * once the server accepted it. */
  post(action: Action | undefined, params?: Record<string, string>): Promise<boolean>;
  /** Says `text` in the page's status line. */
  status(text: string): void;
  actionButton(action: Action, label: Child, attributes?: Record<string, unknown>): HTMLElement;
  actionForm(action: Action, name: string, inputs?: Record<string, string>, key?: string): HTMLElement;
  /** The generic drawing of a whole snapshot (`GenericDrawing`): its title, its actions, its values, its lists as
   * cards with their own actions, forms opened on demand. */
  generic(snapshot: Snapshot, inputs?: Record<string, string>): Child[];
  /** Who is looking, in a session that can be shared: this page's participant id (`owner` for the session's
   * creator; null when the page does not know) and every participant's name by id, as the session lists them (a
   * feature's snapshot names participants by id). The sections are drawn again when either changes. */
  viewer(): { id: string | null; names: Record<string, string> };
  /** Transient notices above the features (the chat's push banners). */
  banners(nodes: Node[]): void;
  words: typeof words;
}

const $ = (id: string) => document.getElementById(id);

/** The helpers, posting with `post`. */
export function makeUI(post: PageUI["post"]): PageUI {
  const status = (text: string) => {
    const line = $("status");
    if (line) line.textContent = text;
  };

  const actionButton = (action: Action, label: Child, attributes: Record<string, unknown> = {}) =>
    el("button", { ...attributes, disabled: action.enabled === false, onclick: () => post(action) }, label);

  // A button for an action without placeholders; otherwise one input per placeholder and a submit button.
  let forms = 0;
  function actionForm(action: Action, name: string, inputs: Record<string, string> = {}, key = `form${++forms}`): HTMLElement {
    const params = [...new Set(placeholders(action))];
    if (params.length === 0) return actionButton(action, words(name));
    const ids = params.map((param) => `vh-${key}-${param}`);
    const valueOf = (id: string) => ($(id) as HTMLInputElement | null)?.value ?? "";
    // What was typed is cleared once the server took it (and kept, to correct, when it refused it).
    const submit = async () => {
      if (await post(action, Object.fromEntries(params.map((param, i) => [param, valueOf(ids[i] ?? "")])))) {
        ids.forEach((id) => { const input = $(id) as HTMLInputElement | null; if (input) input.value = ""; });
      }
    };
    return el("fieldset", { class: "action" },
      el("legend", {}, action.prompt?.title ?? words(name)),
      params.map((param, i) => {
        // A typed placeholder (the action's `inputs`): a number field, or the values it takes offered as a list.
        const input = inputOf(action, param);
        const values = input.enum ?? (input.type === "boolean" ? ["true", "false"] : undefined);
        const numeric = input.type === "integer" || input.type === "number";
        return [
          el("label", { for: ids[i] }, words(param)),
          el("input", { id: ids[i], value: inputs[ids[i] ?? ""] ?? "", autocomplete: "off",
            type: numeric ? "number" : undefined, step: input.type === "integer" ? "1" : numeric ? "any" : undefined,
            list: values ? `${ids[i]}-values` : undefined,
            onkeydown: (event: KeyboardEvent) => { if (event.key === "Enter") void submit(); } }),
          values ? el("datalist", { id: `${ids[i]}-values` }, values.map((value) => el("option", { value }))) : null,
        ];
      }),
      el("button", { disabled: action.enabled === false, onclick: submit }, action.prompt?.submit ?? words(name)));
  }

  const drawing = new GenericDrawing(post);
  const generic = (snapshot: Snapshot, inputs: Record<string, string> = {}) => drawing.draw(snapshot, inputs);

  const banners = (list: Node[]) => $("banners")?.replaceChildren(...list);

  const viewer = () => ({ id: null, names: {} });

  return { renderers: {}, el, post, status, actionButton, actionForm, generic, viewer, banners, words };
}
