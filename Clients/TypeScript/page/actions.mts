import type { Action } from "../client/types.mjs";
import { inputOf as takes } from "../client/action.mjs";
import { el, placeholders, words, type Child } from "./dom.mjs";
import { isScalar } from "./values.mjs";

/** Posts an action, its `{param}` placeholders filled from `params`; true once the server accepted it. */
export type Post = (action: Action | undefined, params?: Record<string, string>) => Promise<boolean>;

/** An action as the generic drawing places it. */
export interface PlacedAction {
  /** Its name in the snapshot (`remove`), which labels its button when it has no prompt. */
  name: string;
  action: Action;
  /** Makes its ids: `vh-KEY-button`, `vh-KEY-form`, and `vh-KEY-PARAM` for each input. */
  key: string;
  /** The view model it belongs to: a field named as a placeholder fills that input when the form opens (a rename
   * starts from the title). */
  owner?: Record<string, unknown>;
  /** What it acts on, for a screen reader (`Remove: Buy milk`). */
  subject?: string;
}

const $ = (id: string) => document.getElementById(id);
const inputOf = (id: string) => $(id) as HTMLInputElement | null;

/** At most this many controls on a row: past it, two actions and a "More" menu with the rest. */
const inlineLimit = 3;

/** Buttons for actions; an action with placeholders opens its small form on demand. It remembers which forms and
 * menus are open, so a redraw of the section (any new snapshot) draws them open again. */
export class ActionControls {
  /** The keys of the forms and "More" menus open now. */
  private readonly open = new Set<string>();
  private readonly post: Post;

  constructor(post: Post) {
    this.post = post;
  }

  /** The row of buttons for `actions` (`compact`: an item's, small and outlined; else those that open a form filled,
   * the others outlined), and their forms, hidden until asked for; `key` names the row's "More" menu. */
  controls(actions: PlacedAction[], inputs: Record<string, string>, key: string, compact: boolean):
    { row: HTMLElement | null; forms: HTMLElement[] } {
    if (actions.length === 0) return { row: null, forms: [] };
    const menuKey = `${key}-more`;
    // Past the limit, the first enabled actions stay on the row; the others, in their order, go in the menu.
    const enabled = (placed: PlacedAction) => placed.action.enabled !== false;
    const usable = [...actions.filter(enabled), ...actions.filter((placed) => !enabled(placed))];
    const inline = actions.length > inlineLimit ? usable.slice(0, inlineLimit - 1) : actions;
    const rest = actions.filter((placed) => !inline.includes(placed));
    const more = rest.length
      ? el("details", { class: "more", id: `vh-${menuKey}`, open: this.open.has(menuKey),
          ontoggle: (event: Event) => this.remember(menuKey, (event.currentTarget as HTMLDetailsElement).open) },
        el("summary", { class: compact ? "small" : "" }, "More"),
        el("div", { class: "menu" }, rest.map((placed) => this.button(placed, compact, menuKey))))
      : null;
    return {
      row: el("div", { class: compact ? "item-actions" : "toolbar" },
        inline.map((placed) => this.button(placed, compact, null)), more),
      forms: actions.filter((placed) => placeholders(placed.action).length > 0).map((placed) => this.form(placed, inputs)),
    };
  }

  private remember(key: string, open: boolean): void {
    if (open) this.open.add(key);
    else this.open.delete(key);
  }

  private button(placed: PlacedAction, compact: boolean, menu: string | null): HTMLElement {
    const { action, key } = placed;
    const asks = placeholders(action).length > 0;
    const label = asks ? action.prompt?.title ?? words(placed.name) : words(placed.name);
    return el("button", {
      id: `vh-${key}-button`, type: "button", class: compact ? "small secondary" : asks ? null : "secondary",
      disabled: action.enabled === false,
      "aria-label": placed.subject ? `${label}: ${placed.subject}` : null,
      "aria-expanded": asks ? String(this.open.has(key)) : null, "aria-controls": asks ? `vh-${key}-form` : null,
      onclick: () => {
        if (menu) this.closeMenu(menu);
        if (asks) this.show(placed, !this.open.has(key));
        else void this.post(action);
      },
    }, asks ? `${label}…` : label);
  }

  private closeMenu(key: string): void {
    this.remember(key, false);
    const menu = $(`vh-${key}`) as HTMLDetailsElement | null;
    if (menu) menu.open = false;
  }

  /** Opens (its inputs started from the owner's fields of the same names, the first one focused) or closes a form. */
  private show(placed: PlacedAction, open: boolean): void {
    const { key } = placed;
    this.remember(key, open);
    const form = $(`vh-${key}-form`);
    if (form) form.hidden = !open;
    $(`vh-${key}-button`)?.setAttribute("aria-expanded", String(open));
    if (!open) return;
    const params = [...new Set(placeholders(placed.action))];
    for (const param of params) {
      const input = inputOf(`vh-${key}-${param}`);
      const start = placed.owner?.[param];
      if (input && input.value === "" && isScalar(start) && start !== null) input.value = String(start);
    }
    const first = inputOf(`vh-${key}-${params[0] ?? ""}`);
    first?.focus();
    first?.select();
  }

  /** The form of an action with placeholders: an input for each, its submit button and Cancel (Escape too). What was
   * typed is cleared and the form closed once the server took it; kept open, to correct, when it refused it. */
  private form(placed: PlacedAction, inputs: Record<string, string>): HTMLElement {
    const { action, key } = placed;
    const params = [...new Set(placeholders(action))];
    const ids = params.map((param) => `vh-${key}-${param}`);
    const title = action.prompt?.title ?? words(placed.name);
    const close = () => {
      this.show(placed, false);
      $(`vh-${key}-button`)?.focus();
    };
    const submit = async (event: Event) => {
      event.preventDefault();
      const values = Object.fromEntries(params.map((param, i) => [param, inputOf(ids[i] ?? "")?.value ?? ""]));
      if (await this.post(action, values)) {
        ids.forEach((id) => { const input = inputOf(id); if (input) input.value = ""; });
        close();
      }
    };
    // One input goes beside its buttons (above them on a narrow screen), named by its placeholder text; several get
    // labels above them.
    const single = params.length === 1;
    const fields: Child = params.map((param, i) => {
      // A typed placeholder (the action's `inputs`): a number field, or the values it takes offered as a list (the
      // client converts and checks what was typed before it posts).
      const type = takes(action, param);
      const values = type.enum ?? (type.type === "boolean" ? ["true", "false"] : undefined);
      const numeric = type.type === "integer" || type.type === "number";
      const input = el("input", { id: ids[i], value: inputs[ids[i] ?? ""] ?? "", autocomplete: "off",
        type: numeric ? "number" : null, step: type.type === "integer" ? "1" : numeric ? "any" : null,
        list: values ? `${ids[i]}-values` : null,
        placeholder: single ? words(param) : null, "aria-label": single ? words(param) : null });
      const list = values ? el("datalist", { id: `${ids[i]}-values` }, values.map((value) => el("option", { value }))) : null;
      return single ? [input, list] : el("div", { class: "field" }, el("label", { for: ids[i] }, words(param)), input, list);
    });
    const buttons: Child = [
      el("button", { type: "submit", disabled: action.enabled === false }, action.prompt?.submit ?? title),
      el("button", { type: "button", class: "secondary", onclick: close }, "Cancel"),
    ];
    return el("form", { id: `vh-${key}-form`, class: "prompt", hidden: !this.open.has(key),
      "aria-label": placed.subject ? `${title}: ${placed.subject}` : title, onsubmit: submit,
      onkeydown: (event: KeyboardEvent) => { if (event.key === "Escape") close(); } },
    single ? el("div", { class: "row" }, fields, el("div", { class: "buttons" }, buttons))
      : [fields, el("div", { class: "buttons" }, buttons)]);
  }
}
