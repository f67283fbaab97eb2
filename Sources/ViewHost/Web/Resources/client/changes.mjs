import { delay } from "./backoff.mjs";
import { ViewHostError } from "./errors.mjs";
import { AsyncQueue } from "./queue.mjs";
import { patchedSnapshot } from "./session.mjs";
import { ServerSentEventParser } from "./sse.mjs";
/** The loop behind `ViewHostSession.changes()`: one event stream after another, resumed with `Last-Event-ID`; long
 * polls while streams are refused; each feature's version delivered at most once. */
export class ChangeFeed {
    constructor(session, options) {
        /** The last `id:` received: the stream resumes after it. */
        this.lastEventID = null;
        /** The server's `retry:`, the least wait before reconnecting (ms). */
        this.retry = 0;
        /** feature → the newest snapshot delivered (a patch applies to it). */
        this.delivered = new Map();
        this.session = session;
        this.options = options;
    }
    get settings() { return this.session.transport.options; }
    async *run() {
        // Aborted when the caller's signal aborts or the iteration ends: every request of the feed goes with it.
        const controller = new AbortController();
        const abort = () => controller.abort();
        this.options.signal?.addEventListener("abort", abort);
        if (this.options.signal?.aborted)
            controller.abort();
        const signal = controller.signal;
        try {
            let failures = 0;
            while (!signal.aborted) {
                const end = yield* this.stream(signal);
                switch (end.kind) {
                    case "fatal":
                        if (signal.aborted)
                            return;
                        throw end.error;
                    case "ended":
                        if (end.reason !== "shutdown") {
                            throw new ViewHostError("sessionEnded", "session ended", `the session was ${end.reason}`);
                        }
                        failures = 1; // the server is stopping: come back after the least wait, then back off
                        break;
                    case "dropped":
                        if (signal.aborted)
                            return;
                        failures = end.progress ? 1 : failures + 1;
                        this.options.onStatus?.("retry", end.cause);
                        break;
                    case "refused":
                        yield* this.longPoll(Math.max(this.settings.fallbackPeriod, (end.problem.retryAfter ?? 0) * 1000), signal);
                        failures = 0;
                        continue;
                }
                const wait = Math.max(delay(this.settings.reconnectBackoff, failures, this.settings.random()), this.retry);
                try {
                    await this.settings.sleep(wait, signal);
                }
                catch {
                    return;
                }
            }
        }
        finally {
            this.options.signal?.removeEventListener("abort", abort);
            controller.abort();
        }
    }
    /** Whether `change` is newer than what was delivered of its feature; marks it delivered if so. */
    claim(change) {
        const held = this.delivered.get(change.feature);
        if (held && held.version >= change.version)
            return false;
        this.delivered.set(change.feature, { version: change.version, etag: `"${change.version}"`, snapshot: change.snapshot });
        return true;
    }
    /** One event stream, read until it ends. */
    async *stream(signal) {
        const transport = this.session.transport;
        const query = { patches: "1" };
        if (this.options.features)
            query.features = this.options.features.join(",");
        const headers = { Accept: "text/event-stream" };
        if (this.lastEventID !== null)
            headers["Last-Event-ID"] = this.lastEventID;
        // Its own controller: a stream silent for longer than the idle timeout is cut and resumed.
        const connection = new AbortController();
        const cut = () => connection.abort();
        signal.addEventListener("abort", cut);
        let idle;
        let silent = false;
        const rearm = () => {
            clearTimeout(idle);
            idle = setTimeout(() => { silent = true; connection.abort(); }, this.settings.idleTimeout);
        };
        let reader;
        let progress = false;
        try {
            rearm();
            let response;
            try {
                response = await transport.request(transport.url(this.session.path("/stream"), query), {
                    token: this.session.token, headers, signal: connection.signal,
                });
            }
            catch (error) {
                return this.failure(error, signal, false, silent);
            }
            if (response.status !== 200) {
                const problem = await ViewHostError.fromResponse(response);
                if (response.status === 429 || response.status === 503)
                    return { kind: "refused", problem };
                if (response.status >= 500)
                    return { kind: "dropped", progress: false, cause: problem };
                return { kind: "fatal", error: problem };
            }
            const type = response.headers.get("Content-Type") ?? "no Content-Type";
            if (!type.toLowerCase().startsWith("text/event-stream") || !response.body) {
                await response.body?.cancel().catch(() => undefined);
                return { kind: "dropped", progress: false, cause: ViewHostError.invalidResponse(`the stream answered 200 (${type}), not an event stream: is ${transport.baseURL || "this origin"} a ViewHost server?`, 200) };
            }
            this.options.onStatus?.("stream");
            reader = response.body.getReader();
            const decoder = new TextDecoder();
            const parser = new ServerSentEventParser();
            while (true) {
                let chunk;
                try {
                    chunk = await reader.read();
                }
                catch (error) {
                    return this.failure(error, signal, progress, silent);
                }
                if (chunk.done) {
                    return { kind: "dropped", progress, cause: new ViewHostError("transport", "transport", "the event stream ended") };
                }
                rearm();
                for (const event of parser.feed(decoder.decode(chunk.value, { stream: true }))) {
                    if (event.event === "ended")
                        return { kind: "ended", reason: reasonOf(event) };
                    if (event.event === "presence") {
                        // Who is here: no snapshot and no id (nothing to resume from), so it neither ends the stream nor moves
                        // Last-Event-ID; one that cannot be read is left out.
                        const presence = presenceOf(event);
                        if (presence)
                            this.options.onPresence?.(presence);
                        continue;
                    }
                    const change = event.event.endsWith(".patch") ? await this.patched(event, signal) : whole(event);
                    if (!change) {
                        if (signal.aborted)
                            return { kind: "fatal", error: ViewHostError.aborted() };
                        // Neither the patch nor the whole snapshot could be had: resume from before this event, whose feature
                        // the next stream sends whole.
                        return { kind: "dropped", progress, cause: ViewHostError.invalidResponse(`the ${event.event} event could not be applied`) };
                    }
                    if (event.id !== null)
                        this.lastEventID = event.id;
                    progress = true;
                    if (this.claim(change))
                        yield change;
                }
                if (parser.retry !== null)
                    this.retry = parser.retry;
            }
        }
        finally {
            clearTimeout(idle);
            signal.removeEventListener("abort", cut);
            connection.abort();
            await reader?.cancel().catch(() => undefined);
        }
    }
    /** How a stream that failed with `error` ended. */
    failure(error, signal, progress, silent) {
        if (signal.aborted)
            return { kind: "fatal", error: ViewHostError.aborted() };
        if (silent) {
            return { kind: "dropped", progress, cause: new ViewHostError("transport", "transport", `the event stream sent nothing for ${this.settings.idleTimeout / 1000} s`) };
        }
        const cause = error instanceof ViewHostError ? error : ViewHostError.transport(error, this.session.transport.baseURL || "/");
        return { kind: "dropped", progress, cause };
    }
    /** The change a `FEATURE.patch` event makes: its patch applied to the snapshot delivered last when that is the
     * event's `base` and the result its `version`; otherwise (a version missed) the whole snapshot, read again. Null
     * when neither can be had. */
    async patched(event, signal) {
        let data;
        try {
            data = JSON.parse(event.data);
        }
        catch {
            return null;
        }
        const feature = typeof data.feature === "string" ? data.feature : event.event.slice(0, -".patch".length);
        const sequence = sequenceOf(event);
        const held = this.delivered.get(feature);
        if (held && held.version === data.base && typeof data.version === "number" && Array.isArray(data.patch)) {
            const snapshot = patchedSnapshot(held.snapshot, data.patch, data.version);
            if (snapshot)
                return { feature, version: data.version, sequence, snapshot, source: "patch" };
        }
        try {
            const read = await this.session.read(feature, null, null, signal);
            return read && { feature, version: read.version, sequence, snapshot: read.snapshot, source: "snapshot" };
        }
        catch {
            return null;
        }
    }
    /** Long polls every followed feature for about `period` ms, delivering what changes. */
    async *longPoll(period, signal) {
        this.options.onStatus?.("poll");
        const polling = new AbortController();
        const stop = () => polling.abort();
        signal.addEventListener("abort", stop);
        const queue = new AsyncQueue();
        try {
            const names = this.options.features
                ?? Object.keys((await this.session.info({ signal: polling.signal })).features).sort();
            const wait = Math.max(1, Math.min(60, Math.ceil(Math.min(this.settings.longPollWait, period) / 1000)));
            this.settings.sleep(period, polling.signal).then(stop, () => undefined);
            const polls = names.map((feature) => this.poll(feature, wait, polling.signal, queue));
            void Promise.all(polls).then(() => queue.close());
            for await (const item of queue) {
                if (item instanceof ViewHostError)
                    throw item;
                if (this.claim(item))
                    yield item;
            }
        }
        catch (error) {
            if (signal.aborted)
                return;
            throw error;
        }
        finally {
            signal.removeEventListener("abort", stop);
            polling.abort();
        }
    }
    /** Long polls one feature until `signal` aborts; a failure for good goes into the queue, and it stops. */
    async poll(feature, wait, signal, queue) {
        let failures = 0;
        while (!signal.aborted) {
            const held = this.delivered.get(feature) ?? null;
            try {
                const read = await this.session.read(feature, held, held ? wait : null, signal);
                failures = 0;
                if (read)
                    queue.push({ feature, version: read.version, sequence: null, snapshot: read.snapshot, source: "poll" });
            }
            catch (error) {
                if (signal.aborted)
                    return;
                const failure = error instanceof ViewHostError ? error : ViewHostError.transport(error, "/");
                if (failure.kind !== "transport" && !(failure.status !== null && failure.status >= 500)) {
                    queue.push(failure);
                    return;
                }
                failures += 1;
                try {
                    await this.settings.sleep(delay(this.settings.reconnectBackoff, failures, this.settings.random()), signal);
                }
                catch {
                    return;
                }
            }
        }
    }
}
/** A change from a whole-snapshot event (`event:` the feature, `data:` its snapshot, `id:` the sequence). */
function whole(event) {
    try {
        const snapshot = JSON.parse(event.data);
        if (snapshot === null || typeof snapshot !== "object" || typeof snapshot.version !== "number")
            return null;
        const record = snapshot;
        return { feature: event.event, version: record.version, sequence: sequenceOf(event), snapshot: record, source: "stream" };
    }
    catch {
        return null;
    }
}
function sequenceOf(event) {
    return event.id !== null && /^[0-9]{1,15}$/.test(event.id) ? Number(event.id) : null;
}
/** The participant an `event: presence` names (`{"id","name","online","since"}`), or null when it is not one. */
function presenceOf(event) {
    try {
        const data = JSON.parse(event.data);
        const record = data;
        if (!record || typeof record !== "object" || typeof record.id !== "string" || typeof record.name !== "string"
            || typeof record.online !== "boolean" || typeof record.since !== "string")
            return null;
        return { id: record.id, name: record.name, online: record.online, since: record.since };
    }
    catch {
        return null;
    }
}
/** The reason of a final `ended` event (`{"reason":"deleted"}`). */
function reasonOf(event) {
    try {
        const data = JSON.parse(event.data);
        const reason = data?.reason;
        return typeof reason === "string" ? reason : "ended";
    }
    catch {
        return "ended";
    }
}
