// Invitations and contacts through the client against the real server (issue 42): each route's answer typed, each
// refusal a ViewHostError with the server's status and sentence. The refusals need no feature that takes contacts;
// the way through (invite, list, redeem, withdraw) uses the seed chat, which takes them.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { clientModule, startServer } from "./support/server.mjs";

const { ViewHostClient, ViewHostError } = await import(clientModule);
let server;

before(async () => { server = await startServer(["--store", "memory"]); });
after(async () => { await server.stop(); });

const problem = (status, field) => (error) => {
  assert.ok(error instanceof ViewHostError, `a ViewHostError, not ${error}`);
  assert.equal(error.kind, "problem");
  assert.equal(error.status, status, error.message);
  assert.ok(error.detail.length > 0, "the server's sentence");
  if (field) assert.ok(error.errors.some((item) => item.field === field), `names ${field}: ${JSON.stringify(error.problem)}`);
  return true;
};

test("refusals: an unknown code 404, a feature that takes no contacts 422, a name out of bounds 422, withdrawing no invitation 404", async () => {
  const client = new ViewHostClient(server.url);
  const session = await client.createSession();
  assert.deepEqual(await session.invitations(), [], "none open");
  await assert.rejects(session.redeem("no-such-code", "Bob"), problem(404, "code"));
  await assert.rejects(session.createInvitation({ feature: "weather", name: "Alice" }), problem(422, "features[0]"));
  await assert.rejects(session.createInvitation({ feature: "chat", name: "" }), problem(422));
  await assert.rejects(session.redeem("some-code", "x".repeat(65)), problem(422, "name"));
  await assert.rejects(session.withdrawInvitation("i-none"), problem(404, "invitationId"));
  // A library action posted as it is, to its own href: the server's refusal comes back as for any action.
  const action = { method: "POST", href: session.path("/invitations"), body: { purpose: "contact", features: ["weather"], name: "{name}" } };
  await assert.rejects(session.submit(action, { name: "Alice" }), problem(422, "features[0]"));
});

test("the way through: invite, list without the code, redeem (201, typed), used up 410, own code 409, withdrawn 410", async () => {
  const client = new ViewHostClient(server.url);
  const alice = await client.createSession();
  const bob = await client.createSession();
  const invitation = await alice.createInvitation({ feature: "chat", name: "Alice" });
  assert.match(invitation.code, /^[0-9a-z]{32}$/i);
  assert.equal(invitation.purpose, "contact");
  assert.deepEqual(invitation.features, ["chat"]);
  assert.equal(invitation.name, "Alice");
  assert.equal(invitation.uses, 1);
  assert.ok(Date.parse(invitation.expiresAt) > Date.now() + 23 * 3600_000, "a day by default");

  const listed = await alice.invitations();
  assert.deepEqual(listed.map((item) => item.id), [invitation.id]);
  assert.equal(listed[0].code, undefined, "never the code again");

  await assert.rejects(alice.redeem(invitation.code, "Alice"), problem(409, "code"));
  const contact = await bob.redeem(invitation.code, "Bob");
  assert.equal(contact.name, "Alice");
  assert.equal(contact.feature, "chat");
  assert.equal(typeof contact.id, "string");
  assert.ok(!contact.id.includes(alice.id), "an opaque address, not the other session's id");
  const carol = await client.createSession();
  await assert.rejects(carol.redeem(invitation.code, "Carol"), problem(410, "code"));

  // Made by a library action as a snapshot offers it, then withdrawn: its code is gone.
  const action = { method: "POST", href: alice.path("/invitations"), body: { purpose: "contact", features: ["chat"], name: "{name}" } };
  const made = await alice.submit(action, { name: "Alice" });
  assert.equal(typeof made.code, "string");
  await alice.withdrawInvitation(made.id);
  assert.deepEqual(await alice.invitations(), []);
  await assert.rejects(carol.redeem(made.code, "Carol"), problem(410, "code"));
});
