import { ViewHostError } from "../client/errors.mjs";
import { el, words } from "./dom.mjs";
const $ = (id) => document.getElementById(id);
/** Under each feature a slider over the versions the server holds (`/versions`, `?version=N`); while it shows the
 * past, the feature is read-only (inert, nothing of it posted) and says so. */
export class History {
    constructor(host) {
        /** feature → its slider's state (the page's `viewhost.history`). */
        this.features = {};
        this.host = host;
    }
    of(feature) {
        return this.features[feature] ?? (this.features[feature] = { oldest: null, viewing: null, asked: 0 });
    }
    /** A new slider for `feature`. */
    bar(feature) {
        const id = `vh-history-${feature}`;
        let timer;
        const load = () => { void this.load(); };
        return el("div", { class: "history", role: "group", "aria-label": `History of ${words(feature)}` }, el("label", { for: id }, "History"), el("input", { id, type: "range", min: 1, max: 1, step: 1, value: 1, onfocus: load, onpointerdown: load,
            oninput: (event) => {
                clearTimeout(timer);
                const version = Number(event.target.value);
                timer = setTimeout(() => { void this.seek(feature, version); }, 60);
            } }), el("output", { id: `${id}-label`, for: id }), el("button", { class: "secondary", id: `${id}-live`, hidden: true, onclick: () => this.live(feature) }, "Back to live"));
    }
    /** The slider's bounds, place and words from the state (without replacing it: a drag goes on). */
    update(feature) {
        const id = `vh-history-${feature}`;
        const slider = $(id);
        if (!slider)
            return;
        const history = this.of(feature);
        const latest = this.host.latest(feature);
        const oldest = Math.min(history.oldest ?? latest, latest);
        slider.min = String(oldest);
        slider.max = String(latest);
        if (!history.viewing)
            slider.value = String(latest);
        slider.disabled = oldest >= latest && !history.viewing;
        const text = history.viewing
            ? `Version ${history.viewing.version} of ${latest}: the past, read-only`
            : `Version ${latest} (live)`;
        slider.setAttribute("aria-valuetext", text);
        const label = $(`${id}-label`);
        if (label)
            label.textContent = text;
        const live = $(`${id}-live`);
        if (live)
            live.hidden = !history.viewing;
    }
    /** Asks the server for the oldest version it holds of each feature. */
    async load() {
        const session = this.host.session();
        if (!session)
            return;
        try {
            const list = await session.versions();
            for (const [feature, range] of Object.entries(list.features ?? {})) {
                this.of(feature).oldest = range.oldest;
                this.update(feature);
            }
        }
        catch {
            // the slider keeps its bounds
        }
    }
    /** Shows `version` of the feature: the live one at the newest, else the past as the server served it. */
    async seek(feature, version) {
        const history = this.of(feature);
        const session = this.host.session();
        if (version >= this.host.latest(feature) || !session) {
            this.live(feature);
            return;
        }
        const asked = ++history.asked;
        try {
            const snapshot = await session.snapshot(feature, { version });
            if (asked !== history.asked)
                return; // the slider moved on meanwhile
            history.viewing = { version, snapshot };
            this.host.draw(feature, snapshot, true);
        }
        catch (error) {
            if (asked !== history.asked)
                return;
            const oldest = error instanceof ViewHostError ? error.problem.oldestVersion : undefined;
            if (typeof oldest === "number")
                history.oldest = oldest;
            this.host.status(error instanceof ViewHostError && error.detail ? error.detail : "That version cannot be read now.");
            this.update(feature);
        }
    }
    /** Back to the newest version. */
    live(feature) {
        const history = this.of(feature);
        history.asked++;
        history.viewing = null;
        this.host.drawLive(feature);
    }
}
