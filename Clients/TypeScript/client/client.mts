import type { AnyFeatures, FeatureMap, Participant, SessionOptions } from "./types.mjs";
import { heldSessions } from "./cookies.mjs";
import { resolveOptions, type ClientOptions } from "./options.mjs";
import { ViewHostSession } from "./session.mjs";
import { Transport } from "./transport.mjs";
import { ViewHostError } from "./errors.mjs";
import { participantOf } from "./invitations.mjs";

/** A client of one ViewHost server: creates sessions, or reopens one from its id (and token). `F` is the app's
 * features, as its generated types module names them (`Features`), so snapshots, intents and changes are typed.
 *
 * ```ts
 * const client = new ViewHostClient<Features>("http://127.0.0.1:8080");
 * const session = await client.createSession();
 * await session.send("login", { type: "setUsername", value: "ann" });
 * for await (const change of session.changes()) console.log(change.feature, change.version);
 * ```
 *
 * Web-standard APIs only (`fetch`, streams, `TextDecoder`, `AbortController`): browsers and Node 18 or later. */
export class ViewHostClient<F extends FeatureMap<F> = AnyFeatures> {
  readonly transport: Transport;

  /** A client of the server at `baseURL` (such as `http://127.0.0.1:8080`; `""` on a page of the server's own
   * origin), with `options` in place of the defaults. */
  constructor(baseURL: string, options: Partial<ClientOptions> = {}) {
    this.transport = new Transport(baseURL, resolveOptions(options));
  }

  /** Creates a session (`POST /v1/sessions`): its features (default: all), time zone and locale. In a browser the
   * server also sets the session's cookies, so `session(id)` reopens it after a reload.
   * @throws ViewHostError `422` for an unknown feature or time zone, `429`/`503` when the server refuses it now. */
  async createSession(options: SessionOptions<keyof F & string> = {}): Promise<ViewHostSession<F>> {
    const body: Record<string, unknown> = {};
    if (options.features) body.features = options.features;
    if (options.timeZone) body.timeZone = options.timeZone;
    if (options.locale) body.locale = options.locale;
    const response = await this.transport.expecting([201], this.transport.url("/v1/sessions"), {
      method: "POST", json: Object.keys(body).length ? body : undefined,
    });
    const created = await this.transport.json<{ id?: unknown; token?: unknown; expiresAt?: unknown }>(response);
    if (typeof created.id !== "string" || typeof created.token !== "string") {
      throw ViewHostError.invalidResponse("the 201 answer lacks the session's id or token", 201);
    }
    return new ViewHostSession<F>(
      this.transport, created.id, created.token, typeof created.expiresAt === "string" ? created.expiresAt : null);
  }

  /** Joins another's shared session with a join invitation's `code`, under `name` (1 to 64 characters) as the
   * others will see it (`POST /v1/invitations/{code}`): the session, with this participant's own token (in a
   * browser the server also sets its cookies, as for a session created), and who this participant is.
   * @throws ViewHostError `404` for an unknown code, `410` for one used up, withdrawn or expired, `422` for a name
   * out of bounds or a session full, `429` when rate limited. */
  async join(code: string, name: string): Promise<{ session: ViewHostSession<F>; participant: Participant }> {
    const response = await this.transport.expecting(
      [201], this.transport.url(`/v1/invitations/${encodeURIComponent(code)}`), { method: "POST", json: { name } });
    const joined = await this.transport.json<{ id?: unknown; token?: unknown; expiresAt?: unknown; participant?: unknown }>(response);
    if (typeof joined.id !== "string" || typeof joined.token !== "string") {
      throw ViewHostError.invalidResponse("the 201 answer lacks the session's id or token", 201);
    }
    const session = new ViewHostSession<F>(
      this.transport, joined.id, joined.token, typeof joined.expiresAt === "string" ? joined.expiresAt : null);
    return { session, participant: participantOf(joined.participant, 201) };
  }

  /** Reopens session `id` (no request is made until the first call): with its `token`, or without one in a browser
   * that holds the session's cookie. */
  session(id: string, token: string | null = null): ViewHostSession<F> {
    return new ViewHostSession<F>(this.transport, id, token);
  }

  /** The ids of the sessions this browser holds a cookie for (none outside a browser): each reopens with
   * `session(id)`. */
  heldSessions(): string[] {
    return heldSessions();
  }
}
