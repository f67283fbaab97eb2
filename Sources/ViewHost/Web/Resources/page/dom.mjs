/** A DOM element built from data without HTML: `on…` attributes become listeners, `text` the text content, `true`
 * an empty attribute, and null, undefined or false none at all. */
export function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
        if (value === undefined || value === null || value === false)
            continue;
        if (key.startsWith("on") && typeof value === "function")
            node.addEventListener(key.slice(2), value);
        else if (key === "text")
            node.textContent = String(value);
        else
            node.setAttribute(key, value === true ? "" : String(value));
    }
    node.append(...nodes(children));
    return node;
}
/** `children` flattened, without the left-out values, text as text nodes. */
export function nodes(children) {
    const result = [];
    const visit = (child) => {
        if (child === null || child === undefined || child === false)
            return;
        if (Array.isArray(child))
            child.forEach(visit);
        else
            result.push(child instanceof Node ? child : document.createTextNode(String(child)));
    };
    children.forEach(visit);
    return result;
}
/** `changeLocation` → `Change location`; `firstName` → `First name`. */
export function words(name) {
    const spaced = String(name).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[-_]/g, " ").toLowerCase();
    return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
/** Whether `value` is an action as snapshots carry them: a feature's (its body an event with its `type`) or the
 * library's (an invitation: its body has no `type`). */
export function isAction(value) {
    if (value === null || typeof value !== "object")
        return false;
    const action = value;
    return typeof action.href === "string" && typeof action.method === "string" && !!action.body
        && typeof action.body === "object" && !Array.isArray(action.body)
        && (action.body.type === undefined || typeof action.body.type === "string");
}
/** The `{param}` placeholders of an action's body, in order (with repeats). */
export function placeholders(action) {
    return Object.values(action.body).flatMap((value) => typeof value === "string" ? [...value.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? "") : []);
}
