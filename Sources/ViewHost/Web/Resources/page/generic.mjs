import { ActionControls } from "./actions.mjs";
import { el, isAction, words } from "./dom.mjs";
import { isScalar, isTime, scalar } from "./values.mjs";
/** Whether `value` is a view model (an object that is not an action). */
const isViewModel = (value) => value !== null && typeof value === "object" && !Array.isArray(value) && !isAction(value);
/** An item's field that names it, the first of these it has as text. */
const headlineNames = ["title", "name", "label", "contact", "subject", "text", "message", "summary", "description"];
/** A name or an id made safe for the ids it goes into (every other character as `_` and its code). */
const safe = (text) => text.replace(/[^A-Za-z0-9_-]/g, (c) => `_${(c.codePointAt(0) ?? 0).toString(16)}`);
/** A view model's fields, its actions apart: those of its `actions` object and any field that is an action. An item's
 * actions (`subject`: what the item is called) start their forms from its fields; others' start empty (a list's
 * `add {title}` is not its own title). */
function split(model, key, subject) {
    const fields = [];
    const actions = [];
    const place = (name, action) => {
        actions.push({ name, action, key: `${key}-${safe(name)}`, ...(subject !== undefined ? { owner: model, subject } : {}) });
    };
    for (const [name, value] of Object.entries(model)) {
        if (isAction(value))
            place(name, value);
        else if (name === "actions" && isViewModel(value)) {
            for (const [actionName, action] of Object.entries(value))
                if (isAction(action))
                    place(actionName, action);
        }
        else
            fields.push([name, value]);
    }
    return { fields, actions };
}
/** The fields of `model` that are lists. */
const lists = (model) => Object.entries(model).filter((entry) => Array.isArray(entry[1]));
/** How the page draws a feature that brings no renderer of its own, so that a person can use it: its values as
 * labelled text (times local, booleans as checkmarks), its lists as cards each with its own actions as small
 * buttons, lists of lists (a board's columns) side by side on a wide screen, and each action with placeholders as a
 * button that opens its small form. */
export class GenericDrawing {
    constructor(post) {
        this.controls = new ActionControls(post);
    }
    /** The whole snapshot: the feature's name (and the snapshot's `title`), its actions, its values, then its lists and
     * nested view models. */
    draw(snapshot, inputs = {}) {
        const { feature, title } = snapshot;
        // A title of the snapshot's own (a board's name) goes under the feature's.
        const lead = typeof title === "string" && title !== "" ? title : null;
        const rest = Object.fromEntries(Object.entries(snapshot).filter(([name]) => name !== "feature" && name !== "version" && !(name === "title" && lead !== null)));
        return [
            el("h2", { id: `${feature}-title` }, words(feature)),
            lead !== null ? el("p", { class: "lead", "data-field": "title" }, lead) : null,
            this.model(rest, feature, inputs, 3),
        ];
    }
    /** A view model: its actions (a toolbar, forms below it), its plain values as a list of labels and values, then
     * each list or nested view model under a heading of `level`. */
    model(model, key, inputs, level) {
        const { fields, actions } = split(model, key);
        const { row, forms } = this.controls.controls(actions, inputs, key, false);
        const values = fields.filter(([, value]) => isScalar(value) && value !== null && value !== "");
        const others = fields.filter(([, value]) => !isScalar(value));
        return [
            row, forms,
            values.length ? el("dl", { class: "fields" }, values.map(([name, value]) => [
                el("dt", {}, words(name)), el("dd", { "data-field": name }, scalar(value))
            ])) : null,
            others.map(([name, value]) => this.group(name, value, `${key}-${safe(name)}`, inputs, level)),
        ];
    }
    /** A list or a nested view model under its heading. */
    group(name, value, key, inputs, level) {
        const heading = el(`h${Math.min(level, 6)}`, { class: "group-title" }, words(name), Array.isArray(value) ? el("span", { class: "count" }, value.length) : null);
        let body;
        if (Array.isArray(value)) {
            body = this.columns(name, value, key, inputs, level + 1) ?? this.list(name, value, key, inputs, level + 1);
        }
        else if (isViewModel(value) && Object.keys(value).length === 0)
            body = el("p", { class: "empty" }, "None.");
        else if (isViewModel(value)) {
            body = this.columnsOf(value, key, inputs, level + 1) ?? this.model(value, key, inputs, level + 1);
        }
        else
            body = scalar(null);
        return el("section", { class: "group", "data-field": name }, heading, body);
    }
    /** A list: view models as cards, actions as buttons, plain values as a short list, anything else one by one. */
    list(name, list, key, inputs, level) {
        if (list.length === 0)
            return el("p", { class: "empty" }, `No ${words(name).toLowerCase()}.`);
        if (list.every(isViewModel)) {
            return el("ul", { class: "items" }, list.map((item, i) => this.item(item, key, i, inputs, level)));
        }
        if (list.every(isAction)) {
            const actions = list.map((action, i) => ({ name: action.body.type ?? "action", action, key: `${key}-${i}` }));
            const { row, forms } = this.controls.controls(actions, inputs, key, false);
            return [row, forms];
        }
        if (list.every(isScalar))
            return el("ul", { class: "values" }, list.map((value) => el("li", {}, scalar(value))));
        return el("ul", { class: "values" }, list.map((value, i) => el("li", {}, isScalar(value) ? scalar(value) : this.group(`${name} ${i + 1}`, value, `${key}-${i}`, inputs, level))));
    }
    /** One view model of a list, as a card: its headline, its other short values in a line, its own actions as small
     * buttons beside it, then longer text, its lists and nested values, and the forms its buttons open. Its `id` is
     * not shown: it names the card's ids instead, so they follow the item when the list changes. */
    item(item, listKey, index, inputs, level) {
        const id = typeof item.id === "string" || typeof item.id === "number" ? String(item.id) : null;
        const key = `${listKey}-${id !== null ? safe(id) : String(index)}`;
        const headline = headlineNames.find((name) => typeof item[name] === "string" && item[name] !== "");
        const subject = headline ? String(item[headline]) : `Item ${index + 1}`;
        const { fields, actions } = split(item, key, subject);
        const shown = fields.filter(([name, value]) => name !== headline && !(name === "id" && id !== null) && value !== null && value !== "");
        // Short values go in a line under the headline; longer text below it as a paragraph.
        const isLong = (value) => typeof value === "string" && value.length > 40 && !isTime(value);
        const short = shown.filter(([, value]) => isScalar(value) && !isLong(value));
        const long = shown.filter(([, value]) => isLong(value));
        const nested = shown.filter(([, value]) => !isScalar(value));
        const { row, forms } = this.controls.controls(actions, inputs, key, true);
        return el("li", { class: "item", "data-id": id }, el("div", { class: "item-main" }, headline ? el("strong", { class: "item-title", "data-field": headline }, String(item[headline])) : null, short.length
            ? el("div", { class: "meta" }, short.map(([name, value]) => this.meta(name, value)))
            : null), row, long.map(([name, value]) => el("p", { class: "item-text", "data-field": name }, String(value))), nested.map(([name, value]) => this.group(name, value, `${key}-${safe(name)}`, inputs, level)), forms);
    }
    /** A short value of a card: a checkmark and its name, or its name and value. */
    meta(name, value) {
        const attributes = {
            class: "meta-value", "data-field": name, "data-value": typeof value === "boolean" ? String(value) : null,
        };
        if (typeof value === "boolean")
            return el("span", attributes, scalar(value), " ", words(name));
        return el("span", attributes, el("span", { class: "meta-label" }, words(name)), " ", scalar(value));
    }
    /** Lists side by side (stacked on a narrow screen): a list of lists, or 2 to 6 view models that each hold one list
     * (a board's columns, each with its title, actions and cards); null for any other list. */
    columns(name, list, key, inputs, level) {
        if (list.length > 0 && list.every(Array.isArray)) {
            return el("div", { class: "columns" }, list.map((inner, i) => this.column(`${words(name)} ${i + 1}`, inner, `${key}-${i}`, inputs, level)));
        }
        const boardLike = list.length >= 2 && list.length <= 6
            && list.every((item) => isViewModel(item) && lists(item).length === 1);
        if (!boardLike)
            return null;
        return el("div", { class: "columns" }, list.map((model, i) => {
            const [listName, inner] = lists(model)[0] ?? ["", []];
            const id = typeof model.id === "string" || typeof model.id === "number" ? safe(String(model.id)) : String(i);
            const headline = headlineNames.find((field) => typeof model[field] === "string");
            const title = headline ? String(model[headline]) : `${words(name)} ${i + 1}`;
            const rest = Object.fromEntries(Object.entries(model).filter(([field]) => field !== listName && field !== headline && field !== "id"));
            return this.column(title, inner, `${key}-${id}`, inputs, level, rest, listName);
        }));
    }
    /** A view model whose values are all lists (two or more, its actions apart), as columns named by its fields. */
    columnsOf(model, key, inputs, level) {
        const { fields, actions } = split(model, key);
        if (fields.length < 2 || !fields.every(([, value]) => Array.isArray(value)))
            return null;
        const { row, forms } = this.controls.controls(actions, inputs, key, false);
        return [row, forms, el("div", { class: "columns" }, fields.map(([name, value]) => this.column(words(name), value, `${key}-${safe(name)}`, inputs, level, {}, name)))];
    }
    /** One column: its title and count, its own values and actions (`model`), then its list. */
    column(title, list, key, inputs, level, model = {}, listName = "items") {
        return el("section", { class: "column", "aria-label": title }, el(`h${Math.min(level, 6)}`, { class: "group-title" }, title, el("span", { class: "count" }, list.length)), this.model(model, key, inputs, level + 1), this.list(listName, list, `${key}-${safe(listName)}`, inputs, level + 1));
    }
}
