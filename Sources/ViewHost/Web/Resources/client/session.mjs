import { fillAction } from "./action.mjs";
import { contactOf, createdInvitationOf, invitationListOf, joinInvitationOf, participantListOf } from "./invitations.mjs";
import { ChangeFeed } from "./changes.mjs";
import { ViewHostError } from "./errors.mjs";
import { delay } from "./backoff.mjs";
import { applyPatch } from "./patch.mjs";
import { segment } from "./transport.mjs";
const patchType = "application/json-patch+json";
/** One session on the server: read its snapshots, send its features' intents, perform the actions its snapshots
 * offer, follow its changes. Made by `ViewHostClient.createSession()` or reopened with `ViewHostClient.session()`.
 *
 * Snapshots are cached with their `ETag`: a read asks `If-None-Match`, and a `304` answers from the cache. Every
 * logical send carries a fresh `Idempotency-Key`, reused when it is retried, so a retried send applies once. */
export class ViewHostSession {
    constructor(transport, id, token, expiresAt = null) {
        this.cache = new Map();
        this.transport = transport;
        this.id = id;
        this.token = token;
        this.expiresAt = expiresAt;
    }
    /** `/v1/sessions/{id}` plus `suffix`, the id as one path segment. */
    path(suffix = "") {
        return `/v1/sessions/${segment(this.id)}${suffix}`;
    }
    // MARK: Reading
    /** The feature's newest snapshot (`GET /v1/sessions/{id}/{feature}`), revalidated with `If-None-Match`; with
     * `version`, that past version as the server served it (immutable). */
    async snapshot(feature, options = {}) {
        if (options.version !== undefined) {
            const url = this.transport.url(this.path(`/${segment(feature)}`), { version: String(options.version) });
            const response = await this.transport.expecting([200], url, { token: this.token, signal: options.signal });
            return await this.transport.json(response);
        }
        const held = await this.read(feature, this.cache.get(feature) ?? null, null, options.signal);
        return (held ?? this.cache.get(feature))?.snapshot;
    }
    /** One conditional read: the snapshot when newer than `known` (or when nothing is known), null on `304`. With
     * `wait` (seconds), a long poll. Holding a snapshot, it accepts a patch from it: applied here and checked against
     * the version the `ETag` names; on any mismatch the whole snapshot is read instead. */
    async read(feature, known, wait, signal) {
        const query = wait === null ? {} : { wait: String(wait) };
        const headers = {};
        if (known) {
            headers["If-None-Match"] = known.etag;
            headers.Accept = `${patchType}, application/json`;
        }
        const url = this.transport.url(this.path(`/${segment(feature)}`), query);
        const response = await this.transport.expecting([200, 304], url, { token: this.token, headers, signal });
        if (response.status === 304) {
            if (!known)
                throw ViewHostError.invalidResponse("304 without a snapshot held", 304);
            return null;
        }
        const etag = response.headers.get("ETag");
        let snapshot;
        if ((response.headers.get("Content-Type") ?? "").toLowerCase().startsWith(patchType)) {
            const operations = await this.transport.json(response);
            const version = etag === null ? null : versionOf(etag);
            const patched = known && version !== null ? patchedSnapshot(known.snapshot, operations, version) : null;
            if (!patched)
                return await this.read(feature, null, null, signal);
            snapshot = patched;
        }
        else {
            snapshot = await this.transport.json(response);
        }
        if (typeof snapshot?.version !== "number") {
            throw ViewHostError.invalidResponse("the snapshot has no version", response.status);
        }
        const held = { version: snapshot.version, etag: etag ?? `"${snapshot.version}"`, snapshot };
        this.keep(feature, held);
        return held;
    }
    /** Keeps `held` as the newest of its feature, unless a newer one is kept. */
    keep(feature, held) {
        if ((this.cache.get(feature)?.version ?? -1) <= held.version)
            this.cache.set(feature, held);
    }
    /** The session's features and their versions (`GET /v1/sessions/{id}`). */
    async info(options = {}) {
        const response = await this.transport.expecting([200], this.transport.url(this.path()), { token: this.token, ...options });
        return await this.transport.json(response);
    }
    /** The versions the server holds of each feature, and what made each (`GET /v1/sessions/{id}/versions`). */
    async versions(options = {}) {
        const response = await this.transport.expecting([200], this.transport.url(this.path("/versions")), { token: this.token, ...options });
        return await this.transport.json(response);
    }
    /** Ends the session (`DELETE /v1/sessions/{id}`); later calls get `404`. */
    async delete() {
        await this.transport.expecting([204], this.transport.url(this.path()), { method: "DELETE", token: this.token });
        this.cache.clear();
    }
    // MARK: Writing
    /** Sends one intent, or a batch applied in order (all or none), to its feature. */
    async send(feature, intents, options = {}) {
        return await this.post(this.path(`/${segment(feature)}/events`), intents, options.signal);
    }
    /** Performs an action a snapshot offers, as it is: posts its body, with its `{param}` placeholders filled from
     * `params` and converted to what each takes (`"3"` posts `3` for an integer placeholder, see `inputs`), to its
     * `href`. A disabled action is posted too (the server answers `409` with what is allowed). A library action (an
     * invitation, whose `href` is not a feature's `/events` and whose answer is not a receipt) goes through `submit`. */
    async perform(action, params = {}, options = {}) {
        if (!action || typeof action.href !== "string" || !action.body) {
            throw new ViewHostError("invalidRequest", "invalid request", "an action needs its href and body, as a snapshot gives them");
        }
        return await this.post(action.href, fillAction(action, params), options.signal);
    }
    /** Posts a library action a snapshot offers (one whose `href` is not a feature's `/events`, such as an
     * invitation action) as it is: its body, placeholders filled as `perform` fills them, to its `href`; the answer's
     * JSON (`{}` for a `204`). Not retried: the library's routes take no `Idempotency-Key`. */
    async submit(action, params = {}, options = {}) {
        if (!action || typeof action.href !== "string" || !action.body) {
            throw new ViewHostError("invalidRequest", "invalid request", "an action needs its href and body, as a snapshot gives them");
        }
        const response = await this.transport.expecting([200, 201, 202, 204], this.transport.url(action.href), {
            method: "POST", token: this.token, json: fillAction(action, params), signal: options.signal,
        });
        if (response.status === 204)
            return {};
        const answer = await this.transport.json(response);
        return answer !== null && typeof answer === "object" && !Array.isArray(answer) ? answer : {};
    }
    // MARK: Contacts
    /** Makes an invitation of purpose `contact` for a feature that takes contacts, in the name the other side will
     * see (`POST /v1/sessions/{id}/invitations`). Its `code`, given out in this answer only, is what the other person
     * redeems with `redeem`. Not retried (a lost answer leaves an unused invitation, listed by `invitations()`).
     * @throws ViewHostError `422` for a feature that takes no contacts or a name out of bounds, `429` past the
     * session's open invitations or the rate limit. */
    async createInvitation(options, request = {}) {
        const body = { purpose: "contact", features: [options.feature], name: options.name };
        if (options.uses !== undefined)
            body.uses = options.uses;
        if (options.expiresInSeconds !== undefined)
            body.expiresInSeconds = options.expiresInSeconds;
        const response = await this.transport.expecting([201], this.transport.url(this.path("/invitations")), {
            method: "POST", token: this.token, json: body, signal: request.signal,
        });
        return createdInvitationOf(await this.transport.json(response));
    }
    /** The session's open invitations, without their codes (`GET /v1/sessions/{id}/invitations`). */
    async invitations(options = {}) {
        const response = await this.transport.expecting([200], this.transport.url(this.path("/invitations")), { token: this.token, ...options });
        return invitationListOf(await this.transport.json(response));
    }
    /** Withdraws an open invitation (`DELETE /v1/sessions/{id}/invitations/{invitationId}`): its code is `410` from
     * then on.
     * @throws ViewHostError `404` when it names no open invitation of this session. */
    async withdrawInvitation(id, options = {}) {
        await this.transport.expecting([204], this.transport.url(this.path(`/invitations/${segment(id)}`)), {
            method: "DELETE", token: this.token, ...options,
        });
    }
    /** Redeems another session's invitation code, naming this side `name` as the inviter will see it
     * (`POST /v1/sessions/{id}/contacts`): both sessions' features are told of the contact.
     * @throws ViewHostError `404` for an unknown code, `410` for one used up, withdrawn or expired, `409` for this
     * session's own code or a contact it has, `422` for a name out of bounds or too many contacts, `429` when rate
     * limited. */
    async redeem(code, name, options = {}) {
        const response = await this.transport.expecting([201], this.transport.url(this.path("/contacts")), {
            method: "POST", token: this.token, json: { code, name }, signal: options.signal,
        });
        return contactOf(await this.transport.json(response));
    }
    // MARK: Participants
    /** Invites someone to share this session (`POST /v1/sessions/{id}/invitations`, purpose `join`), by its owner:
     * the code, given out in this answer only, is what they join with (`ViewHostClient.join`). By default every
     * feature of the session that can be shared, single use, a day. Not retried.
     * @throws ViewHostError `403` for a member, `422` for a feature that cannot be shared or a bound out of range,
     * `429` past the session's open join invitations or the rate limit. */
    async createJoinInvitation(options = {}, request = {}) {
        const body = { purpose: "join" };
        if (options.features)
            body.features = options.features;
        if (options.uses !== undefined)
            body.uses = options.uses;
        if (options.ttlSeconds !== undefined)
            body.ttlSeconds = options.ttlSeconds;
        const response = await this.transport.expecting([201], this.transport.url(this.path("/invitations")), {
            method: "POST", token: this.token, json: body, signal: request.signal,
        });
        return joinInvitationOf(await this.transport.json(response));
    }
    /** The session's participants, the owner first, each with its presence (`GET /v1/sessions/{id}/participants`). */
    async participants(options = {}) {
        const response = await this.transport.expecting([200], this.transport.url(this.path("/participants")), { token: this.token, ...options });
        return participantListOf(await this.transport.json(response));
    }
    /** One logical send: a new `Idempotency-Key`, kept for every retry (no answer, `408`, or `409`/`429`/`503` with
     * `Retry-After`), with backoff between tries. */
    async post(path, body, signal) {
        const options = this.transport.options;
        const url = this.transport.url(path);
        const key = options.makeIdempotencyKey();
        for (let failures = 1;; failures++) {
            try {
                const response = await this.transport.expecting([202], url, {
                    method: "POST", token: this.token, json: body, headers: { "Idempotency-Key": key }, signal,
                });
                const receipt = await this.transport.json(response);
                return { accepted: receipt.accepted, version: receipt.version, replayed: response.headers.get("Idempotent-Replayed") === "true" };
            }
            catch (error) {
                if (!(error instanceof ViewHostError) || !error.retryable || failures >= options.sendAttempts)
                    throw error;
                const wait = error.retryAfter !== null ? error.retryAfter * 1000 : delay(options.sendBackoff, failures, options.random());
                await this.transport.sleep(wait, signal);
            }
        }
    }
    // MARK: Following
    /** The session's changes as they happen, as an async iterator: first the current snapshot of each feature, then
     * every change. It reads the event stream with patches and resumes it by itself with `Last-Event-ID` (waiting at
     * least the server's `retry:`) when the connection drops or the server restarts; while streams are refused (`429`,
     * `503`) it long polls instead and tries a stream again later. A feature's version comes at most once, never older
     * than one before. It ends when `signal` aborts or the loop breaks, and throws a `ViewHostError` when the session
     * ends (`sessionEnded`) or the server refuses it for good (`401`, `404`, `410`). */
    changes(options = {}) {
        const feed = new ChangeFeed(this, options);
        return { [Symbol.asyncIterator]: () => feed.run() };
    }
}
/** The version an entity tag names (`"7"` or `W/"7"`; `"7.ID"`, a member's own view of a feature whose snapshot
 * depends on its viewer). */
export function versionOf(etag) {
    const match = /^(?:W\/)?"([0-9]{1,15})(?:\.[A-Za-z0-9]{1,32})?"$/.exec(etag.trim());
    return match ? Number(match[1]) : null;
}
/** `operations` applied to `snapshot` when the result is `version`; null when they do not apply or it is not. */
export function patchedSnapshot(snapshot, operations, version) {
    try {
        const patched = applyPatch(snapshot, operations);
        return patched?.version === version ? patched : null;
    }
    catch {
        return null;
    }
}
