import { el } from "./dom.mjs";
/** Whether `value` is a plain JSON value (not a list or an object). */
export function isScalar(value) {
    return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}
// RFC 3339 / ISO 8601 date-times (`T` or a space, seconds and fraction optional, a zone or none: a wall time
// here), and dates alone.
const dateTime = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const dateOnly = /^\d{4}-\d{2}-\d{2}$/;
/** Whether `text` is a date-time or a date (drawn as a local time). */
export const isTime = (text) => dateTime.test(text) || dateOnly.test(text);
/** A date-time or a date as this browser's local time, in a `<time>` that keeps the value as sent (its `datetime`,
 * and its `title`, shown on hover); null for any other text. */
export function localTime(text) {
    if (dateTime.test(text)) {
        // What Date parses everywhere: `T`, and an offset with its colon (+0200 → +02:00).
        const normal = text.replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2").replace(/([+-]\d{2})$/, "$1:00");
        const date = new Date(normal);
        if (Number.isNaN(date.getTime()))
            return null;
        return el("time", { datetime: text, title: text }, date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }));
    }
    if (dateOnly.test(text)) {
        // A day, not an instant: drawn as that day wherever the browser is.
        const date = new Date(`${text}T00:00:00Z`);
        if (Number.isNaN(date.getTime()))
            return null;
        return el("time", { datetime: text, title: text }, date.toLocaleDateString(undefined, { dateStyle: "medium", timeZone: "UTC" }));
    }
    return null;
}
/** A checkmark in a box (ticked for true), drawn by the style sheet (no glyph a font may lack), with the words for a
 * screen reader. */
export function check(on) {
    return [
        el("span", { class: on ? "check on" : "check", "aria-hidden": "true" }),
        el("span", { class: "sr" }, on ? "yes" : "no"),
    ];
}
/** A plain value as a person reads it: a boolean as a checkmark, a date-time as a local time, null as a dash. */
export function scalar(value) {
    if (value === null)
        return el("span", { class: "empty" }, "–");
    if (typeof value === "boolean")
        return check(value);
    if (typeof value === "string")
        return localTime(value) ?? value;
    return String(value);
}
