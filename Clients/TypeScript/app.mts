// The page at `/` (`app.js`): opens this tab's session, follows its changes with the client (the event stream with
// patches, resumed with Last-Event-ID, long polling while streams are refused), and draws every feature section from
// its snapshots. A feature with a renderer draws itself (its script, appended to this module by the server,
// registers `ViewHost.renderers[name]`); any other is drawn generically. It posts only the actions the snapshots
// carry and builds the DOM with text only, never HTML from data.
import type { AnySnapshot, Presence } from "./client/types.mjs";
import { ViewHostClient } from "./client/client.mjs";
import { ViewHostError } from "./client/errors.mjs";
import type { ViewHostSession } from "./client/session.mjs";
import { nodes } from "./page/dom.mjs";
import { History } from "./page/history.mjs";
import { PeopleCard } from "./page/people.mjs";
import { askToJoin, joinCode, ownSession, ParticipantsCard } from "./page/participants.mjs";
import { adoptSession, fillPicker, openSession } from "./page/sessions.mjs";
import { makeUI, type PageUI, type Renderer } from "./page/ui.mjs";

/** What the page holds (`window.viewhost`, for tests and the curious). */
interface PageState {
  id: string | null;
  /** feature → its newest snapshot. */
  snapshots: Record<string, AnySnapshot>;
  history: History["features"];
  /** Changes that came as patches applied here, and snapshots read whole after a patch that did not apply. */
  patches: number;
  refetched: number;
}

declare global {
  interface Window {
    ViewHost: PageUI;
    viewhost: PageState;
  }
}

const $ = (id: string) => document.getElementById(id);
const client = new ViewHostClient("");
let session: ViewHostSession | null = null;

const history = new History({
  session: () => session,
  latest: (feature) => state.snapshots[feature]?.version ?? 1,
  draw: (feature, snapshot, past) => draw(feature, snapshot, past),
  drawLive: (feature) => { const snapshot = state.snapshots[feature]; if (snapshot) draw(feature, snapshot, false); },
  status: (text) => ui.status(text),
});
// The People card, when a feature of the app takes contacts (the server names them in `<main data-contacts>`).
const contactFeatures = ($("features")?.dataset.contacts ?? "").split(" ").filter((name) => name !== "");
const people = contactFeatures.length
  ? new PeopleCard({ session: () => session, status: (text) => ui.status(text) }, contactFeatures) : null;
// The Participants card, when a feature of the app can be shared (the server names them in `<main data-shared>`).
const shared = ($("features")?.dataset.shared ?? "").split(" ").filter((name) => name !== "");
const participants = shared.length ? new ParticipantsCard({
  session: () => session, status: (text) => ui.status(text),
  changed: () => {
    for (const [feature, snapshot] of Object.entries(state.snapshots)) if (!history.of(feature).viewing) draw(feature, snapshot, false);
  },
}) : null;
const state: PageState = { id: null, snapshots: {}, history: history.features, patches: 0, refetched: 0 };

const ui = makeUI(async (action, params = {}) => {
  if (!action || action.enabled === false || !session) return false;
  const target = /\/v1\/sessions\/[^/]+\/([^/]+)\/events$/.exec(action.href || "");
  const feature = target?.[1];
  if (feature && history.of(feature).viewing) {
    ui.status(`${ui.words(feature)} shows a past version: it is read-only. Go back to live to act.`);
    return false;
  }
  // A placeholder the user left empty is posted empty (the server says what is wrong with it).
  const filled: Record<string, string> = {};
  for (const value of Object.values(action.body)) {
    for (const match of String(value).matchAll(/\{(\w+)\}/g)) filled[match[1] ?? ""] = params[match[1] ?? ""] ?? "";
  }
  try {
    if (feature) {
      await session.perform(action, filled);
      return true;
    }
    // A library action (an invitation): its body posted to its own href as it is; a code in the answer is shown
    // once, by the People card.
    const answer = await session.submit(action, filled);
    if (typeof answer.code === "string" && typeof answer.id === "string") {
      people?.show({ id: answer.id, code: answer.code, purpose: "contact",
        features: Array.isArray(answer.features) ? answer.features.map(String) : [],
        name: String(answer.name ?? ""), expiresAt: String(answer.expiresAt ?? ""),
        uses: typeof answer.uses === "number" ? answer.uses : 1 });
      ui.status("Invitation made: its code is under People.");
    }
    return true;
  } catch (error) {
    // A refusal, or a value the action's input does not take (an integer placeholder given "three"): say why.
    ui.status(error instanceof ViewHostError && (error.kind === "problem" || error.kind === "invalidRequest")
      ? error.detail || `The server answered ${error.status}.`
      : "The server cannot be reached; retrying.");
    return false;
  }
});
ui.viewer = () => ({ id: participants?.you ?? null, names: participants?.names() ?? {} });
window.ViewHost = ui;
window.viewhost = state;

/** The newest snapshot of a feature: drawn, unless its slider shows the past (then only the slider moves on). */
function render(feature: string, snapshot: AnySnapshot): void {
  const previous = state.snapshots[feature];
  if (previous && previous.version > snapshot.version) return;
  state.snapshots[feature] = snapshot;
  if (feature === "login") people?.login(snapshot);
  if (history.of(feature).viewing) {
    history.update(feature);
    return;
  }
  draw(feature, snapshot, false);
}

/** Draws `snapshot` in the feature's section above its history slider (which stays in place, so a drag goes on); a
 * past one read-only. */
function draw(feature: string, snapshot: AnySnapshot, past: boolean): void {
  const section = $(feature);
  if (!section) return;
  const renderer: Renderer = ui.renderers[feature] ?? ((s, inputs, helpers) => helpers.generic(s, inputs));
  const focused = document.activeElement && section.contains(document.activeElement) ? document.activeElement.id : null;
  const inputs: Record<string, string> = {};
  section.querySelectorAll<HTMLInputElement>("input[id]").forEach((input) => { inputs[input.id] = input.value; });
  const drawn = nodes([renderer(snapshot, inputs, ui)]);
  const bar = section.querySelector<HTMLElement>(":scope > .history") ?? history.bar(feature);
  for (const child of [...section.children]) if (child !== bar) child.remove();
  section.prepend(...drawn);
  if (!bar.parentNode) section.append(bar);
  for (const node of drawn) if (node instanceof HTMLElement) node.inert = past;
  section.classList.toggle("past", past);
  history.update(feature);
  section.hidden = false;
  if (focused && !past) $(focused)?.focus();
}

/** Follows the session's changes until it ends. */
async function follow(current: ViewHostSession): Promise<void> {
  // A stream that breaks and is back within 2 s (a deploy switching nodes: the server's `retry:` is 1 s) shows
  // nothing; only a longer outage says so.
  let reconnecting: ReturnType<typeof setTimeout> | null = null;
  const onStatus = (status: "stream" | "poll" | "retry") => {
    if (status === "retry") {
      reconnecting ??= setTimeout(() => ui.status("Reconnecting…"), 2000);
      return;
    }
    if (reconnecting !== null) clearTimeout(reconnecting);
    reconnecting = null;
    ui.status(status === "stream" ? "Live" : "Live (long polling)");
    // A member may not read the session's versions (the owner's): its sliders keep their bounds.
    if (participants?.you === "owner" || !participants) void history.load();
    // Read again once the stream is open: this page is online from now on, which no presence event tells itself.
    if (status === "stream") void participants?.refresh();
  };
  try {
    const onPresence = participants ? (presence: Presence) => participants.presence(presence) : undefined;
    for await (const change of current.changes({ onStatus, onPresence })) {
      if (change.source === "patch") state.patches++;
      if (change.source === "snapshot") state.refetched++;
      render(change.feature, change.snapshot);
    }
  } catch (error) {
    ui.status(error instanceof ViewHostError && error.kind === "sessionEnded"
      ? "This session has ended; reload for a new one."
      : `The session cannot be followed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A section for each feature the server lists in `<main data-features>`, in its order, hidden until drawn. */
function makeSections(): void {
  const main = $("features");
  for (const feature of (main?.dataset.features ?? "").split(" ").filter((name) => name !== "")) {
    const section = document.createElement("section");
    section.id = feature;
    section.className = "card";
    section.setAttribute("aria-labelledby", `${feature}-title`);
    section.hidden = true;
    main?.append(section);
  }
  if (people) main?.append(people.build());
  if (participants) main?.append(participants.build());
}

async function start(): Promise<void> {
  makeSections();
  // Opened with an invite link: join that session under the name the person gives, instead of making one.
  const code = participants ? joinCode() : null;
  if (code) adoptSession(await askToJoin(client, code, $("features")));
  session = await openSession(client, participants ? ownSession : undefined);
  state.id = session.id;
  void fillPicker(client, session.id);
  if (participants) await participants.start(session);
  await follow(session);
}

// Features' renderers register in the code that follows this module's: start once they all ran.
document.addEventListener("DOMContentLoaded", () => {
  start().catch((error: unknown) => ui.status(error instanceof ViewHostError && error.kind === "problem"
    ? `Cannot open a session (${error.status}).` : "The server cannot be reached."));
});
