// The client against the real server: sessions, snapshots with their ETag, sends retried once and applied once, and
// refusals as typed errors.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { clientModule, startServer } from "./support/server.mjs";
import { startProxy } from "./support/proxy.mjs";

const { ViewHostClient, ViewHostError } = await import(clientModule);
const quick = { sendBackoff: { initial: 20, maximum: 100 }, reconnectBackoff: { initial: 20, maximum: 200 } };
let server;

before(async () => { server = await startServer(["--store", "memory"]); });
after(async () => { await server.stop(); });

test("a session: made, its snapshots read (a 304 answered from the cache), reopened by id and token, deleted", async () => {
  const client = new ViewHostClient(server.url, quick);
  const session = await client.createSession({ features: ["login", "person"], timeZone: "Europe/Tallinn" });
  assert.match(session.id, /^[0-9a-z]{26}$/);
  assert.match(session.token, /^[0-9a-z]{52}$/);
  const info = await session.info();
  assert.deepEqual(Object.keys(info.features).sort(), ["login", "person"]);

  const first = await session.snapshot("login");
  assert.equal(first.feature, "login");
  assert.equal(first.version, 1);
  const again = await session.snapshot("login");
  assert.deepEqual(again, first, "a 304 answers from the cache");

  const receipt = await session.send("login", { type: "setUsername", value: "ann" });
  assert.deepEqual(receipt, { accepted: 1, version: 2, replayed: false });
  const reopened = client.session(session.id, session.token);
  const login = await reopened.snapshot("login");
  assert.equal(login.version, 2);
  assert.equal(login.username, "ann");

  const performed = await reopened.perform(login.actions.setPassword, { value: "secret99" });
  assert.equal(performed.version, 3);
  assert.equal((await reopened.snapshot("login")).passwordLength, 8);

  await session.delete();
  await assert.rejects(reopened.info(), (error) => error instanceof ViewHostError && error.status === 404);
});

test("a send whose answer is lost is retried once with its Idempotency-Key, and applied once", async () => {
  const proxy = await startProxy(server.port);
  try {
    const session = await new ViewHostClient(`http://127.0.0.1:${proxy.port}`, quick).createSession({ features: ["person"] });
    proxy.dropAnswerTo = /^POST \/v1\/sessions\/[0-9a-z]+\/person\/events /;
    const receipt = await session.send("person", {
      type: "setPerson", firstName: "Ada", lastName: "Lovelace", birthdate: "1815-12-10",
    });
    assert.equal(receipt.version, 2, "applied once: the person's first change");
    assert.equal(receipt.replayed, true, "the retry got the first answer again");
    const posts = proxy.requests.filter((line) => line.startsWith("POST ") && line.includes("/person/events"));
    assert.equal(posts.length, 2, "sent once, retried once");
    const log = await (await fetch(`${server.url}/v1/sessions/${session.id}/log`, {
      headers: { Authorization: `Bearer ${session.token}` },
    })).json();
    const applied = log.filter((entry) => entry.feature === "person" && entry.source === "client");
    assert.equal(applied.length, 1, "one client event in the person's log");
  } finally {
    await proxy.close();
  }
});

test("a send a proxy answers 502 after the server applied it (a node switched in a deploy) is retried, applied once", async () => {
  const proxy = await startProxy(server.port);
  try {
    const session = await new ViewHostClient(`http://127.0.0.1:${proxy.port}`, quick).createSession({ features: ["person"] });
    proxy.badGatewayTo = /^POST \/v1\/sessions\/[0-9a-z]+\/person\/events /;
    const receipt = await session.send("person", {
      type: "setPerson", firstName: "Grace", lastName: "Hopper", birthdate: "1906-12-09",
    });
    assert.equal(receipt.version, 2, "applied once: the person's first change");
    assert.equal(receipt.replayed, true, "the retry got the first answer again");
    const posts = proxy.requests.filter((line) => line.startsWith("POST ") && line.includes("/person/events"));
    assert.equal(posts.length, 2, "sent once, retried once");
  } finally {
    await proxy.close();
  }
});

test("a 409 and a 422 are typed errors with the problem's status, title, detail and allowed types", async () => {
  const session = await new ViewHostClient(server.url, quick).createSession({ features: ["login"] });
  const conflict = await session.send("login", { type: "login" }).catch((error) => error);
  assert.ok(conflict instanceof ViewHostError);
  assert.equal(conflict.kind, "problem");
  assert.equal(conflict.status, 409);
  assert.equal(conflict.title, "Conflict");
  assert.match(conflict.detail, /disabled/);
  assert.deepEqual(conflict.allowed, ["setUsername", "setPassword"]);
  assert.equal(conflict.retryAfter, null);
  assert.equal(conflict.retryable, false);

  const unknown = await session.send("login", { type: "fly" }).catch((error) => error);
  assert.ok(unknown instanceof ViewHostError);
  assert.equal(unknown.status, 422);
  assert.equal(unknown.title, "Unprocessable Content");
  assert.match(unknown.detail, /Unknown event type 'fly'/);
  assert.deepEqual(unknown.allowed, ["setUsername", "setPassword", "login"]);

  const missing = await session.perform({ method: "POST", href: `/v1/sessions/${session.id}/login/events`,
    body: { type: "setUsername", value: "{value}" } }).catch((error) => error);
  assert.equal(missing.kind, "invalidRequest", "a placeholder without a value is never posted");
});

test("a server that is not there is a transport error, after the send's tries", async () => {
  const proxy = await startProxy(1);  // nothing listens on port 1: every connection is cut at once
  try {
    const client = new ViewHostClient(`http://127.0.0.1:${proxy.port}`, { ...quick, sendAttempts: 2 });
    const error = await client.session("s".repeat(26), "t").send("login", { type: "login" }).catch((failure) => failure);
    assert.ok(error instanceof ViewHostError);
    assert.equal(error.kind, "transport");
    assert.equal(proxy.requests.filter((line) => line.startsWith("POST ")).length, 2, "tried twice with one key");
  } finally {
    await proxy.close();
  }
});
