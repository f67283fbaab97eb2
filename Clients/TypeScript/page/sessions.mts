import { forgetHeldSession } from "../client/cookies.mjs";
import type { ViewHostClient } from "../client/client.mjs";
import { ViewHostError } from "../client/errors.mjs";
import type { ViewHostSession } from "../client/session.mjs";
import { el } from "./dom.mjs";

/** Where a tab keeps the id of its session: per tab, so every tab has its own, and a reload finds it again. */
const key = "viewhost.session";

/** The answers that say a session cannot be had with this browser's cookie: no token, gone, expired. */
const gone = (error: unknown) => error instanceof ViewHostError && [401, 404, 410].includes(error.status ?? 0);

/** Makes session `id` this tab's (one it joined): `openSession` opens it from now on. */
export function adoptSession(id: string): void {
  sessionStorage.setItem(key, id);
}

/** This tab's session: the one it had (its cookie still valid), else a new one (`createdHook` is told its id). */
export async function openSession(client: ViewHostClient, createdHook?: (id: string) => void): Promise<ViewHostSession> {
  const saved = sessionStorage.getItem(key);
  if (saved) {
    const session = client.session(saved);
    try {
      await session.info();
      return session;
    } catch (error) {
      if (!gone(error)) throw error;
      forgetHeldSession(saved);
    }
  }
  const created = await client.createSession();
  sessionStorage.setItem(key, created.id);
  createdHook?.(created.id);
  // From now on through the cookie the server set, as after a reload.
  return client.session(created.id);
}

/** Fills the header's session picker with the sessions this browser holds (each checked with its cookie; those gone
 * are forgotten), the current one chosen; choosing another moves this tab to it, "New session" makes one. */
export async function fillPicker(client: ViewHostClient, current: string): Promise<void> {
  const picker = document.getElementById("sessions") as HTMLSelectElement | null;
  if (!picker) return;
  // The newest twenty at most: one request each.
  const held = client.heldSessions().slice(-20);
  if (!held.includes(current)) held.push(current);
  const options: HTMLElement[] = [];
  for (const id of held) {
    try {
      const info = await client.session(id).info();
      const time = new Date(info.createdAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      options.push(el("option", { value: id, selected: id === current }, `${id.slice(0, 6)} · ${time}`));
    } catch (error) {
      if (gone(error)) forgetHeldSession(id);
    }
  }
  options.push(el("option", { value: "" }, "New session"));
  picker.replaceChildren(...options);
  picker.onchange = () => {
    if (picker.value) sessionStorage.setItem(key, picker.value);
    else sessionStorage.removeItem(key);
    location.reload();
  };
  const label = picker.closest("label");
  if (label) label.hidden = false;
}
