/** Every failure of the client, as one type: a problem answer of the server (RFC 9457, with its `status`, `title`,
 * `detail`, and for `409` and `422` the `allowed` event types), or a failure on the way. */
export class ViewHostError extends Error {
    constructor(kind, title, detail, more = {}) {
        super(more.status ? `${more.status} ${title}${detail ? `: ${detail}` : ""}` : `${title}${detail ? `: ${detail}` : ""}`);
        this.name = "ViewHostError";
        this.kind = kind;
        this.status = more.status ?? null;
        this.type = more.type ?? "about:blank";
        this.title = title;
        this.detail = detail;
        this.allowed = more.allowed ?? [];
        this.errors = more.errors ?? [];
        this.retryAfter = more.retryAfter ?? null;
        this.problem = more.problem ?? {};
    }
    /** Whether sending the same request again (with the same `Idempotency-Key`) may succeed: no answer came, the server
     * did not get the whole request (`408`), a proxy found no server behind it (`502`, `504`, or `503` while a deploy
     * switches nodes), the server is stopping (`503`), or it said when to come back (`409`, `429` with `Retry-After`).
     * The key makes each retry safe: a send applied before its answer was lost is answered again, not applied twice. */
    get retryable() {
        if (this.kind === "transport")
            return true;
        if (this.kind !== "problem")
            return false;
        if (this.status === 408 || this.status === 502 || this.status === 503 || this.status === 504)
            return true;
        return (this.status === 409 || this.status === 429) && this.retryAfter !== null;
    }
    /** The error for a non-2xx answer: its problem document when the body is one, else the status alone. */
    static async fromResponse(response) {
        const text = await response.text().catch(() => "");
        let problem = {};
        try {
            const parsed = JSON.parse(text);
            if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
                problem = parsed;
        }
        catch {
            // not a problem document: the status alone
        }
        const strings = (value) => Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
        const errors = Array.isArray(problem.errors)
            ? problem.errors.filter((item) => item !== null && typeof item === "object"
                && typeof item.field === "string" && typeof item.message === "string")
            : [];
        const retry = response.headers.get("Retry-After");
        const retryAfter = retry !== null && /^[0-9]{1,9}$/.test(retry.trim()) ? Number(retry.trim()) : null;
        return new ViewHostError("problem", typeof problem.title === "string" ? problem.title : response.statusText || `HTTP ${response.status}`, typeof problem.detail === "string" ? problem.detail : "", { status: response.status, type: typeof problem.type === "string" ? problem.type : undefined,
            allowed: strings(problem.allowed), errors, retryAfter, problem });
    }
    /** The error for a request that got no answer (`fetch` rejected), or that the caller aborted. */
    static transport(error, url, signal) {
        if (signal?.aborted)
            return ViewHostError.aborted();
        // Node's fetch says "fetch failed" and puts what failed (ECONNREFUSED, "other side closed") in `cause`.
        const inner = error instanceof Error ? error.cause : undefined;
        const cause = inner instanceof Error ? inner.message : error instanceof Error ? error.message : String(error);
        let server = "the server";
        try {
            server = new URL(url).origin;
        }
        catch {
            // a path on the page's own origin
        }
        return new ViewHostError("transport", "transport", `no answer from ${server} (${cause})`);
    }
    /** The caller aborted. */
    static aborted() {
        return new ViewHostError("aborted", "aborted", "the request was aborted");
    }
    /** An answer the API does not promise. */
    static invalidResponse(detail, status = null) {
        return new ViewHostError("invalidResponse", "invalid response", detail, { status });
    }
}
