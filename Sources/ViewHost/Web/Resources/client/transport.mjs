import { ViewHostError } from "./errors.mjs";
/** The client's one door to the network: requests against the base URL, with the session's token as
 * `Authorization: Bearer` when it has one (else the browser sends its cookie for the session's path), every failure
 * as a `ViewHostError`. */
export class Transport {
    constructor(baseURL, options) {
        // Kept as a prefix: with `http://host/viewhost/` (a proxy on a sub-path) `/v1/sessions` is under it.
        this.baseURL = baseURL.replace(/\/+$/, "");
        this.options = options;
    }
    /** `path` (absolute, such as `/v1/sessions`, or an action's `href`) under the base URL; a whole URL or a relative
     * path is refused, never followed. */
    url(path, query = {}) {
        if (!path.startsWith("/") || path.startsWith("//")) {
            throw new ViewHostError("invalidRequest", "invalid request", `'${path}' is not a URL path`);
        }
        const search = new URLSearchParams(query).toString();
        return `${this.baseURL}${path}${search ? (path.includes("?") ? "&" : "?") + search : ""}`;
    }
    /** Runs one request; any answer with a status comes back, whatever the status.
     * @throws ViewHostError `transport` when no answer came, `aborted` when `init.signal` aborted. */
    async request(url, init) {
        const headers = new Headers(init.headers);
        if (!headers.has("Accept"))
            headers.set("Accept", "application/json");
        if (init.token)
            headers.set("Authorization", `Bearer ${init.token}`);
        let body = init.body;
        if (init.json !== undefined) {
            body = JSON.stringify(init.json);
            headers.set("Content-Type", "application/json");
        }
        const { token: _token, json: _json, ...rest } = init;
        try {
            // Same-origin credentials: a page on the server's origin sends the session's cookie, a token-bearing client
            // its header (the server reads the header first).
            return await this.options.fetch(url, { credentials: "same-origin", ...rest, headers, body });
        }
        catch (error) {
            throw ViewHostError.transport(error, url, init.signal ?? undefined);
        }
    }
    /** Runs one request and fails unless its status is one of `expected`: with the problem for an error status, as an
     * invalid response for another success (a proxy's HTML page where a `201` was due). */
    async expecting(expected, url, init) {
        const response = await this.request(url, init);
        if (expected.includes(response.status))
            return response;
        if (response.status < 200 || response.status >= 400)
            throw await ViewHostError.fromResponse(response);
        await response.body?.cancel().catch(() => undefined);
        const type = response.headers.get("Content-Type");
        throw ViewHostError.invalidResponse(`the server answered ${response.status}${type ? ` (${type})` : ""} where the API answers ${expected.join(" or ")}: is ${this.baseURL || "this origin"} a ViewHost server?`, response.status);
    }
    /** The answer's JSON body, or an invalid response saying why it is not what the API promises. */
    async json(response) {
        const text = await response.text().catch((error) => {
            throw ViewHostError.transport(error, response.url || this.baseURL);
        });
        try {
            return JSON.parse(text);
        }
        catch {
            throw ViewHostError.invalidResponse(`the ${response.status} answer is not JSON`, response.status);
        }
    }
    /** Waits `ms`; an abort ends the wait with an `aborted` error. */
    async sleep(ms, signal) {
        try {
            await this.options.sleep(ms, signal);
        }
        catch {
            throw ViewHostError.aborted();
        }
    }
}
/** `text` as one path segment: an id or a feature name can never add a segment, climb one or start a query. */
export function segment(text) {
    return encodeURIComponent(text).replace(/\./g, "%2E");
}
