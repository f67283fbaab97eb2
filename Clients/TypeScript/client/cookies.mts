// The cookies a browser holds for its sessions (README, "Sessions in a browser"): `POST /v1/sessions` sets
// `viewhost_session_ID` (the token: HttpOnly, sent only to /v1/sessions/ID) and `viewhost_held_ID=1` (no secret,
// readable here), so a page can tell which sessions this browser holds without ever seeing a token.

const marker = /^viewhost_held_([0-9a-z]{1,64})$/;

/** The ids of the sessions this browser holds a cookie for, oldest first; none outside a browser. */
export function heldSessions(): string[] {
  const cookies = (globalThis as { document?: { cookie?: string } }).document?.cookie ?? "";
  const ids: string[] = [];
  for (const pair of cookies.split(";")) {
    const name = pair.split("=", 1)[0]?.trim() ?? "";
    const id = marker.exec(name)?.[1];
    if (id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Forgets that this browser holds session `id` (its marker; the server clears the token's cookie on `DELETE`). */
export function forgetHeldSession(id: string): void {
  const document = (globalThis as { document?: { cookie?: string } }).document;
  if (!document || !/^[0-9a-z]{1,64}$/.test(id)) return;
  document.cookie = `viewhost_held_${id}=; Path=/; SameSite=Strict; Max-Age=0`;
}
