// A shared session through the client against the real server (issue 43): the owner makes a join invitation, Bea
// joins with its code, and each follows the session's changes; the stream's `event: presence` is told to
// `onPresence` and is no change of a feature, so the stream goes on (it used to be taken for a snapshot that could
// not be read, which dropped the stream and resumed it, a presence event again at the other's, and so on).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { clientModule, startServer } from "./support/server.mjs";

const { ViewHostClient, ViewHostError } = await import(clientModule);
const quick = { sendBackoff: { initial: 20, maximum: 100 }, reconnectBackoff: { initial: 20, maximum: 200 } };
let server;

before(async () => { server = await startServer(["--store", "memory"]); });
after(async () => { await server.stop(); });

/** Follows `session` until `signal` aborts: its statuses and presence events, and a promise per awaited presence. */
function follow(session, signal) {
  const seen = { statuses: [], presence: [], waiters: [] };
  const onStatus = (status) => seen.statuses.push(status);
  const onPresence = (presence) => {
    seen.presence.push(presence);
    for (const waiter of seen.waiters.splice(0)) waiter.check();
  };
  seen.until = (test, what) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no presence event ${what} within 30 s: ${JSON.stringify(seen)}`)), 30_000);
    const waiter = { check: () => {
      const found = seen.presence.find(test);
      if (found) { clearTimeout(timer); resolve(found); } else seen.waiters.push(waiter);
    } };
    waiter.check();
  });
  seen.done = (async () => {
    try {
      for await (const _ of session.changes({ signal, onStatus, onPresence })) { /* changes: not what this tests */ }
    } catch (error) {
      if (!(error instanceof ViewHostError && error.kind === "aborted")) throw error;
    }
  })();
  return seen;
}

test("join: invited, joined with a name, each other's presence told to onPresence, the streams never dropped", async () => {
  const client = new ViewHostClient(server.url, quick);
  const owner = await client.createSession();
  const invitation = await owner.createJoinInvitation();
  assert.equal(invitation.role, "member");
  assert.equal(invitation.uses, 1);
  assert.ok(invitation.features.length > 0, "the features that can be shared");

  const stop = new AbortController();
  const ownerFeed = follow(owner, stop.signal);
  const joined = await new ViewHostClient(server.url, quick).join(invitation.code, "Bea");
  assert.equal(joined.session.id, owner.id);
  assert.equal(joined.participant.name, "Bea");
  assert.equal(joined.participant.role, "member");
  assert.notEqual(joined.participant.id, "owner");
  const beaFeed = follow(joined.session, stop.signal);

  const online = await ownerFeed.until((p) => p.id === joined.participant.id && p.online, "Bea online");
  assert.equal(online.name, "Bea");
  const listed = await joined.session.participants();
  assert.deepEqual(listed.map((p) => [p.id, p.role]), [["owner", "owner"], [joined.participant.id, "member"]]);
  assert.ok(listed.every((p) => p.presence.online), JSON.stringify(listed));
  // Neither stream was dropped by a presence event: each opened once, never a retry.
  assert.deepEqual(ownerFeed.statuses, ["stream"]);
  assert.deepEqual(beaFeed.statuses, ["stream"]);

  await assert.rejects(new ViewHostClient(server.url).join(invitation.code, "Cy"),
    (error) => error instanceof ViewHostError && error.status === 410);
  stop.abort();
  await Promise.all([ownerFeed.done, beaFeed.done]);
});
