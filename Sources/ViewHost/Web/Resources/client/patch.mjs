const isContainer = (value) => value !== null && typeof value === "object";
/** `document` with `operations` applied (RFC 6902), as a new value (`document` is not changed).
 * @throws Error when an operation does not apply (a missing path, a bad index, a failed `test`). */
export function applyPatch(document, operations) {
    let result = structuredClone(document);
    for (const op of operations) {
        switch (op.op) {
            case "add":
                result = add(result, op.path, structuredClone(op.value));
                break;
            case "remove":
                result = remove(result, op.path);
                break;
            case "replace":
                get(result, op.path);
                result = add(remove(result, op.path), op.path, structuredClone(op.value));
                break;
            case "move": {
                const value = get(result, from(op));
                result = add(remove(result, from(op)), op.path, value);
                break;
            }
            case "copy":
                result = add(result, op.path, structuredClone(get(result, from(op))));
                break;
            case "test":
                if (!equal(get(result, op.path), op.value))
                    throw new Error(`test failed at ${op.path}`);
                break;
            default: throw new Error(`unknown op ${String(op.op)}`);
        }
    }
    return result;
}
function from(op) {
    if (typeof op.from !== "string")
        throw new Error(`${op.op} without from`);
    return op.from;
}
function tokens(pointer) {
    if (pointer === "")
        return [];
    if (!pointer.startsWith("/"))
        throw new Error(`bad pointer ${pointer}`);
    return pointer.slice(1).split("/").map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}
function parentOf(root, pointer) {
    const path = tokens(pointer);
    const last = path.pop();
    if (last === undefined)
        throw new Error("the root has no parent");
    let node = root;
    for (const token of path) {
        if (!isContainer(node) || !Object.prototype.hasOwnProperty.call(node, token))
            throw new Error(`no ${pointer}`);
        node = node[token];
    }
    if (!isContainer(node))
        throw new Error(`no ${pointer}`);
    return [node, last];
}
function index(array, key, end) {
    if (!/^(0|[1-9][0-9]*|-)$/.test(key))
        throw new Error(`bad index ${key}`);
    const at = key === "-" ? array.length : Number(key);
    if (at > array.length || (!end && at === array.length))
        throw new Error(`bad index ${key}`);
    return at;
}
function get(root, pointer) {
    if (pointer === "")
        return root;
    const [parent, key] = parentOf(root, pointer);
    if (Array.isArray(parent))
        return parent[index(parent, key, false)];
    if (!Object.prototype.hasOwnProperty.call(parent, key))
        throw new Error(`no ${pointer}`);
    return parent[key];
}
function add(root, pointer, value) {
    if (pointer === "")
        return value;
    const [parent, key] = parentOf(root, pointer);
    if (Array.isArray(parent))
        parent.splice(index(parent, key, true), 0, value);
    else
        parent[key] = value;
    return root;
}
function remove(root, pointer) {
    if (pointer === "")
        throw new Error("cannot remove the root");
    const [parent, key] = parentOf(root, pointer);
    if (Array.isArray(parent))
        parent.splice(index(parent, key, false), 1);
    else if (Object.prototype.hasOwnProperty.call(parent, key))
        delete parent[key];
    else
        throw new Error(`no ${pointer}`);
    return root;
}
function equal(a, b) {
    if (a === b)
        return true;
    if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b))
        return false;
    const keysA = Object.keys(a), keysB = Object.keys(b);
    return keysA.length === keysB.length
        && keysA.every((key) => Object.prototype.hasOwnProperty.call(b, key)
            && equal(a[key], b[key]));
}
