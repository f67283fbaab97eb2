import type { AnySnapshot } from "../client/types.mjs";
import { ViewHostError } from "../client/errors.mjs";
import type { ViewHostSession } from "../client/session.mjs";
import { el, words } from "./dom.mjs";

/** The slider's state of one feature. */
export interface FeatureHistory {
  /** The oldest version the server holds (it moves on as history is compacted); null until asked. */
  oldest: number | null;
  /** The past version shown, read-only; null while the feature is live. */
  viewing: { version: number; snapshot: AnySnapshot } | null;
  /** Counts seeks, so an answer for a slider that moved on since is dropped. */
  asked: number;
}

/** What the history needs of the page. */
export interface HistoryHost {
  session(): ViewHostSession | null;
  /** The newest version of `feature` drawn live. */
  latest(feature: string): number;
  /** Draws `snapshot` in the feature's section (`past`: read-only). */
  draw(feature: string, snapshot: AnySnapshot, past: boolean): void;
  /** Draws the feature's newest snapshot again. */
  drawLive(feature: string): void;
  status(text: string): void;
}

const $ = (id: string) => document.getElementById(id);

/** Under each feature a slider over the versions the server holds (`/versions`, `?version=N`); while it shows the
 * past, the feature is read-only (inert, nothing of it posted) and says so. */
export class History {
  /** feature → its slider's state (the page's `viewhost.history`). */
  readonly features: Record<string, FeatureHistory> = {};
  private readonly host: HistoryHost;

  constructor(host: HistoryHost) {
    this.host = host;
  }

  of(feature: string): FeatureHistory {
    return this.features[feature] ?? (this.features[feature] = { oldest: null, viewing: null, asked: 0 });
  }

  /** A new slider for `feature`. */
  bar(feature: string): HTMLElement {
    const id = `vh-history-${feature}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () => { void this.load(); };
    return el("div", { class: "history", role: "group", "aria-label": `History of ${words(feature)}` },
      el("label", { for: id }, "History"),
      el("input", { id, type: "range", min: 1, max: 1, step: 1, value: 1, onfocus: load, onpointerdown: load,
        oninput: (event: Event) => {
          clearTimeout(timer);
          const version = Number((event.target as HTMLInputElement).value);
          timer = setTimeout(() => { void this.seek(feature, version); }, 60);
        } }),
      el("output", { id: `${id}-label`, for: id }),
      el("button", { class: "secondary", id: `${id}-live`, hidden: true, onclick: () => this.live(feature) }, "Back to live"));
  }

  /** The slider's bounds, place and words from the state (without replacing it: a drag goes on). */
  update(feature: string): void {
    const id = `vh-history-${feature}`;
    const slider = $(id) as HTMLInputElement | null;
    if (!slider) return;
    const history = this.of(feature);
    const latest = this.host.latest(feature);
    const oldest = Math.min(history.oldest ?? latest, latest);
    slider.min = String(oldest);
    slider.max = String(latest);
    if (!history.viewing) slider.value = String(latest);
    slider.disabled = oldest >= latest && !history.viewing;
    const text = history.viewing
      ? `Version ${history.viewing.version} of ${latest}: the past, read-only`
      : `Version ${latest} (live)`;
    slider.setAttribute("aria-valuetext", text);
    const label = $(`${id}-label`);
    if (label) label.textContent = text;
    const live = $(`${id}-live`);
    if (live) live.hidden = !history.viewing;
  }

  /** Asks the server for the oldest version it holds of each feature. */
  async load(): Promise<void> {
    const session = this.host.session();
    if (!session) return;
    try {
      const list = await session.versions();
      for (const [feature, range] of Object.entries(list.features ?? {})) {
        this.of(feature).oldest = range.oldest;
        this.update(feature);
      }
    } catch {
      // the slider keeps its bounds
    }
  }

  /** Shows `version` of the feature: the live one at the newest, else the past as the server served it. */
  async seek(feature: string, version: number): Promise<void> {
    const history = this.of(feature);
    const session = this.host.session();
    if (version >= this.host.latest(feature) || !session) {
      this.live(feature);
      return;
    }
    const asked = ++history.asked;
    try {
      const snapshot = await session.snapshot(feature, { version });
      if (asked !== history.asked) return;  // the slider moved on meanwhile
      history.viewing = { version, snapshot };
      this.host.draw(feature, snapshot, true);
    } catch (error) {
      if (asked !== history.asked) return;
      const oldest = error instanceof ViewHostError ? error.problem.oldestVersion : undefined;
      if (typeof oldest === "number") history.oldest = oldest;
      this.host.status(error instanceof ViewHostError && error.detail ? error.detail : "That version cannot be read now.");
      this.update(feature);
    }
  }

  /** Back to the newest version. */
  live(feature: string): void {
    const history = this.of(feature);
    history.asked++;
    history.viewing = null;
    this.host.drawLive(feature);
  }
}
