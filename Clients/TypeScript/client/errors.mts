/** What kind of failure a `ViewHostError` is. */
export type ErrorKind =
  /** The server answered with an error status (`status` says which). */
  | "problem"
  /** The request got no answer: connection refused or lost, timed out. */
  | "transport"
  /** The answer is not what the API promises (a body that does not decode, an unexpected status). */
  | "invalidResponse"
  /** The client could not build the request (an action's placeholder without a value). */
  | "invalidRequest"
  /** The session ended (deleted or expired) while its changes were followed. */
  | "sessionEnded"
  /** The caller's `AbortSignal` aborted it. */
  | "aborted";

/** One invalid field of a `422` (or `400`) answer. */
export interface FieldError {
  field: string;
  message: string;
}

/** Every failure of the client, as one type: a problem answer of the server (RFC 9457, with its `status`, `title`,
 * `detail`, and for `409` and `422` the `allowed` event types), or a failure on the way. */
export class ViewHostError extends Error {
  readonly kind: ErrorKind;
  /** The HTTP status, when there was one. */
  readonly status: number | null;
  /** The problem's `type` URI (`about:blank` for the server's own). */
  readonly type: string;
  /** A short summary: the problem's title, such as `Conflict`, or the kind of failure. */
  readonly title: string;
  /** What happened, in a sentence. */
  readonly detail: string;
  /** For `409` (the state cannot apply the event now) and `422` (an unknown event type): what is allowed. */
  readonly allowed: string[];
  /** The invalid fields of a `422` or `400`. */
  readonly errors: FieldError[];
  /** The answer's `Retry-After` in seconds (`429`, `503`, a `409` while the same key is in flight). */
  readonly retryAfter: number | null;
  /** The whole problem document, for its other members (`oldestVersion`, `latestVersion`, `line`). */
  readonly problem: Record<string, unknown>;

  constructor(
    kind: ErrorKind, title: string, detail: string,
    more: { status?: number | null; type?: string; allowed?: string[]; errors?: FieldError[]; retryAfter?: number | null;
      problem?: Record<string, unknown> } = {},
  ) {
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
  get retryable(): boolean {
    if (this.kind === "transport") return true;
    if (this.kind !== "problem") return false;
    if (this.status === 408 || this.status === 502 || this.status === 503 || this.status === 504) return true;
    return (this.status === 409 || this.status === 429) && this.retryAfter !== null;
  }

  /** The error for a non-2xx answer: its problem document when the body is one, else the status alone. */
  static async fromResponse(response: Response): Promise<ViewHostError> {
    const text = await response.text().catch(() => "");
    let problem: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) problem = parsed as Record<string, unknown>;
    } catch {
      // not a problem document: the status alone
    }
    const strings = (value: unknown): string[] => Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
    const errors = Array.isArray(problem.errors)
      ? problem.errors.filter((item): item is FieldError => item !== null && typeof item === "object"
        && typeof item.field === "string" && typeof item.message === "string")
      : [];
    const retry = response.headers.get("Retry-After");
    const retryAfter = retry !== null && /^[0-9]{1,9}$/.test(retry.trim()) ? Number(retry.trim()) : null;
    return new ViewHostError(
      "problem", typeof problem.title === "string" ? problem.title : response.statusText || `HTTP ${response.status}`,
      typeof problem.detail === "string" ? problem.detail : "",
      { status: response.status, type: typeof problem.type === "string" ? problem.type : undefined,
        allowed: strings(problem.allowed), errors, retryAfter, problem });
  }

  /** The error for a request that got no answer (`fetch` rejected), or that the caller aborted. */
  static transport(error: unknown, url: string, signal?: AbortSignal): ViewHostError {
    if (signal?.aborted) return ViewHostError.aborted();
    // Node's fetch says "fetch failed" and puts what failed (ECONNREFUSED, "other side closed") in `cause`.
    const inner = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
    const cause = inner instanceof Error ? inner.message : error instanceof Error ? error.message : String(error);
    let server = "the server";
    try {
      server = new URL(url).origin;
    } catch {
      // a path on the page's own origin
    }
    return new ViewHostError("transport", "transport", `no answer from ${server} (${cause})`);
  }

  /** The caller aborted. */
  static aborted(): ViewHostError {
    return new ViewHostError("aborted", "aborted", "the request was aborted");
  }

  /** An answer the API does not promise. */
  static invalidResponse(detail: string, status: number | null = null): ViewHostError {
    return new ViewHostError("invalidResponse", "invalid response", detail, { status });
  }
}
