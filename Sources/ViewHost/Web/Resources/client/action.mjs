import { ViewHostError } from "./errors.mjs";
/** What the placeholder `name` of `action` takes: its entry in `inputs`, or any string. */
export function inputOf(action, name) {
    return action.inputs?.[name] ?? { type: "string" };
}
/** The value to post for a placeholder taking `input`, from what was given (a form's text, or a value of the
 * type): `"3"` becomes `3` for an integer; undefined when it does not take it. */
export function inputValue(input, given) {
    const text = typeof given === "string" ? given.trim() : undefined;
    switch (input.type) {
        case "integer": {
            const number = typeof given === "number" ? given : text !== undefined && /^-?\d+$/.test(text) ? Number(text) : NaN;
            return Number.isSafeInteger(number) ? number : undefined;
        }
        case "number": {
            const number = typeof given === "number" ? given : text ? Number(text) : NaN;
            return Number.isFinite(number) ? number : undefined;
        }
        case "boolean":
            return typeof given === "boolean" ? given : text === "true" ? true : text === "false" ? false : undefined;
        default:
            if (typeof given !== "string")
                return undefined;
            return !input.enum || input.enum.includes(given) ? given : undefined;
    }
}
/** What a placeholder taking `input` must be, after "must be". */
function phrase(input) {
    switch (input.type) {
        case "integer": return "an integer";
        case "number": return "a number";
        case "boolean": return "true or false";
        default: return input.enum ? `one of ${input.enum.join(", ")}` : "a string";
    }
}
/** The body `action` posts, its placeholders filled from `params` and converted to what each takes: a field that is
 * exactly `{name}` gets the value itself (a number for an integer placeholder), a longer text has `{name}`
 * replaced by the text. Throws an `invalidRequest` error naming a placeholder without a value or with one it does
 * not take. */
export function fillAction(action, params) {
    const body = {};
    const named = action.body.type ?? action.href;
    const given = (name) => {
        const value = params[name];
        if (value === undefined) {
            throw new ViewHostError("invalidRequest", "invalid request", `the '${named}' action needs a value for {${name}}`);
        }
        return value;
    };
    for (const [key, value] of Object.entries(action.body)) {
        if (value === undefined)
            continue;
        // A list (an invitation's `features`) is posted as it is: its items are names, not placeholders.
        if (Array.isArray(value)) {
            body[key] = value;
            continue;
        }
        const whole = typeof value === "string" && key !== "type" ? /^\{(\w+)\}$/.exec(value) : null;
        if (whole) {
            const name = whole[1] ?? "";
            const input = inputOf(action, name);
            const filled = inputValue(input, given(name));
            if (filled === undefined) {
                throw new ViewHostError("invalidRequest", "invalid request", `the '${named}' action's {${name}} must be ${phrase(input)}`);
            }
            body[key] = filled;
        }
        else {
            body[key] = typeof value !== "string" || key === "type"
                ? value : value.replace(/\{(\w+)\}/g, (_, name) => String(given(name)));
        }
    }
    return body;
}
