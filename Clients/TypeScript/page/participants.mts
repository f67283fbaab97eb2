import type { Participant, Presence } from "../client/types.mjs";
import type { ViewHostClient } from "../client/client.mjs";
import type { ViewHostSession } from "../client/session.mjs";
import { el } from "./dom.mjs";
import { plainly } from "./people.mjs";

/** What the card needs of the page. */
export interface ParticipantsHost {
  /** This tab's session, once open. */
  session(): ViewHostSession | null;
  /** Says `text` in the page's status line. */
  status(text: string): void;
  /** The participants changed (one joined, came online, went offline): sections that name them are drawn again. */
  changed(): void;
}

const $ = (id: string) => document.getElementById(id);
/** Where a tab keeps who it is in a session it joined (`viewhost.participant.ID`); a session it created is its own. */
const key = (session: string) => `viewhost.participant.${session}`;

/** The join code in the page's address (`/#join=CODE`: a fragment, so it is never sent to the server, logged or
 * passed on as a referrer), or null. */
export function joinCode(): string | null {
  const match = /^#join=([A-Za-z0-9_-]{1,128})$/.exec(location.hash);
  return match?.[1] ?? null;
}

/** Asks the person for their name and joins with `code` (`POST /v1/invitations/{code}`): the session joined, kept
 * as this tab's with who they are in it, the code taken out of the address. Refusals are shown and asked again. */
export function askToJoin(client: ViewHostClient, code: string, main: HTMLElement | null): Promise<string> {
  return new Promise((resolve) => {
    const submit = async (event: Event) => {
      event.preventDefault();
      const name = ($("join-name") as HTMLInputElement | null)?.value.trim() ?? "";
      const error = $("join-error");
      try {
        const joined = await client.join(code, name);
        sessionStorage.setItem(key(joined.session.id), joined.participant.id);
        history.replaceState(null, "", location.pathname + location.search);
        card.remove();
        resolve(joined.session.id);
      } catch (failure) {
        if (error) {
          error.textContent = plainly(failure);
          error.hidden = false;
        }
      }
    };
    const card = el("section", { id: "join", class: "card", "aria-labelledby": "join-title" },
      el("h2", { id: "join-title" }, "Join a shared session"),
      el("form", { id: "join-form", onsubmit: submit },
        el("label", { for: "join-name" }, "Your name, as the others will see it"),
        el("input", { id: "join-name", required: true, maxlength: "64", autocomplete: "nickname" }),
        el("div", { class: "buttons" }, el("button", { id: "join-button", type: "submit" }, "Join")),
        el("p", { id: "join-error", class: "error", role: "alert", hidden: true })));
    main?.prepend(card);
    ($("join-name") as HTMLInputElement | null)?.focus();
  });
}

/** Notes that this tab created session `id`: it is its owner. */
export function ownSession(id: string): void {
  sessionStorage.setItem(key(id), "owner");
}

/** The page's "Participants" card, shown when a feature of the app can be shared (the server lists them in `<main
 * data-shared>`): who is in the session and whether they are here (a stream open), kept live by the stream's
 * presence events; and for the owner, an invite link to send (`/#join=CODE`), made on demand and shown once. */
export class ParticipantsCard {
  private readonly host: ParticipantsHost;
  /** The session's participants, the owner first. */
  participants: Participant[] = [];
  /** This tab's participant id in its session (`owner` for the one it created), null when it does not know. */
  you: string | null = null;

  constructor(host: ParticipantsHost) {
    this.host = host;
  }

  /** The card, to append to the page's main. */
  build(): HTMLElement {
    return el("section", { id: "participants", class: "card", "aria-labelledby": "participants-title", hidden: true },
      el("h2", { id: "participants-title" }, "Participants"),
      el("ul", { id: "participant-list" }),
      el("div", { id: "share", hidden: true },
        el("div", { class: "buttons" },
          el("button", { id: "share-button", onclick: () => this.invite() }, "Create an invite link")),
        el("p", { id: "share-result", hidden: true },
          el("label", { for: "share-link" }, "Send this link to who you want to share with (it works once, for a day)"),
          el("input", { id: "share-link", readonly: true }),
          el("button", { id: "share-copy", onclick: () => this.copy() }, "Copy")),
        el("p", { id: "share-error", class: "error", role: "alert", hidden: true })));
  }

  /** Starts on the tab's session: who it is there, and the participants as the server lists them. */
  async start(session: ViewHostSession): Promise<void> {
    this.you = sessionStorage.getItem(key(session.id));
    const share = $("share");
    if (share) share.hidden = this.you !== "owner";
    await this.refresh();
  }

  /** The names by participant id, as the session lists them. */
  names(): Record<string, string> {
    return Object.fromEntries(this.participants.map((participant) => [participant.id, participant.name]));
  }

  /** A participant came online or went offline: its line changes (one not listed yet, who just joined, is read with
   * the whole list again). */
  presence(presence: Presence): void {
    const known = this.participants.find((participant) => participant.id === presence.id);
    if (!known) {
      void this.refresh();
      return;
    }
    known.presence = { online: presence.online, since: presence.since };
    this.draw();
  }

  /** Reads the list again (`GET /v1/sessions/{id}/participants`). */
  async refresh(): Promise<void> {
    const session = this.host.session();
    if (!session) return;
    try {
      this.participants = await session.participants();
      this.draw();
    } catch (error) {
      this.host.status(`The participants cannot be read: ${plainly(error)}`);
    }
  }

  private draw(): void {
    const card = $("participants");
    if (card) card.hidden = false;
    $("participant-list")?.replaceChildren(...this.participants.map((participant) => {
      const online = participant.presence.online;
      const name = participant.id === "owner" ? "The owner" : participant.name;
      return el("li", { class: online ? "participant online" : "participant", "data-participant": participant.id,
        "data-online": String(online) },
      el("span", { class: "participant-name" }, participant.id === this.you ? `${name} (you)` : name),
      el("span", { class: "participant-presence" }, online ? "online" : "offline"));
    }));
    this.host.changed();
  }

  /** Makes a join invitation and shows its link (its code is shown this once). */
  private async invite(): Promise<void> {
    const session = this.host.session();
    const error = $("share-error");
    if (!session || !error) return;
    try {
      const invitation = await session.createJoinInvitation();
      const link = $("share-link") as HTMLInputElement | null;
      if (link) link.value = `${location.origin}/#join=${invitation.code}`;
      const result = $("share-result");
      if (result) result.hidden = false;
      error.hidden = true;
      $("share-copy")?.focus();
    } catch (failure) {
      error.textContent = plainly(failure);
      error.hidden = false;
    }
  }

  private async copy(): Promise<void> {
    const link = ($("share-link") as HTMLInputElement | null)?.value ?? "";
    try {
      await navigator.clipboard.writeText(link);
      this.host.status("The invite link is copied.");
    } catch {
      ($("share-link") as HTMLInputElement | null)?.select();
      this.host.status("Copy the selected link.");
    }
  }
}
