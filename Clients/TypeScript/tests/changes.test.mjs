// `changes()` against the real server: patches applied and checked, a stream resumed across a kill -9 and a restart
// without missing a change, and long polling while streams are refused.
import assert from "node:assert/strict";
import { test } from "node:test";
import { clientModule, makeDirectory, removeDirectory, startServer } from "./support/server.mjs";
import { startProxy } from "./support/proxy.mjs";

const { ViewHostClient } = await import(clientModule);
const quick = { sendBackoff: { initial: 20, maximum: 100 }, reconnectBackoff: { initial: 20, maximum: 200 } };

/** The snapshot as the server serves it now, read without the client. */
async function served(url, session, feature) {
  const response = await fetch(`${url}/v1/sessions/${session.id}/${feature}`, { headers: { Authorization: `Bearer ${session.token}` } });
  return await response.json();
}

test("the stream's patches are applied to the snapshot held and checked against their version", async () => {
  const server = await startServer(["--store", "memory"]);
  try {
    const session = await new ViewHostClient(server.url, quick).createSession({ features: ["login"] });
    const changes = session.changes()[Symbol.asyncIterator]();
    const first = (await changes.next()).value;
    assert.equal(first.version, 1);
    assert.equal(first.source, "stream", "a feature's first snapshot comes whole");
    assert.equal(typeof first.sequence, "number");
    for (const [version, value] of [[2, "ann"], [3, "annabel"]]) {
      await session.send("login", { type: "setUsername", value });
      const change = (await changes.next()).value;
      assert.equal(change.version, version);
      assert.equal(change.source, "patch", "later versions come as patches");
      assert.equal(change.snapshot.username, value);
      assert.deepEqual(change.snapshot, await served(server.url, session, "login"), "the patched snapshot is the server's");
    }
    await changes.return();
  } finally {
    await server.stop();
  }
});

test("a stream across a kill -9 and a restart on the same store misses nothing", async () => {
  const directory = await makeDirectory();
  const durable = ["--store", "sqlite", "--data-dir", directory];
  let server = await startServer(durable);
  const proxy = await startProxy(server.port);
  try {
    const session = await new ViewHostClient(`http://127.0.0.1:${proxy.port}`, quick).createSession({ features: ["login"] });
    const statuses = [];
    const changes = session.changes({ onStatus: (status) => statuses.push(status) })[Symbol.asyncIterator]();
    const seen = [(await changes.next()).value];
    await session.send("login", { type: "setUsername", value: "before" });
    seen.push((await changes.next()).value);
    assert.equal(seen[1].snapshot.username, "before");

    // Killed with everything acknowledged durable; while it is down and the client retries, another server takes
    // the store and the session changes twice there.
    await server.kill();
    server = await startServer(durable);
    proxy.upstreamPort = server.port;
    const direct = new ViewHostClient(server.url, quick).session(session.id, session.token);
    await direct.send("login", { type: "setUsername", value: "while" });
    await direct.send("login", { type: "setPassword", value: "secret99" });

    let resumed = (await changes.next()).value;
    seen.push(resumed);
    while (resumed.version < 4) seen.push(resumed = (await changes.next()).value);
    assert.equal(resumed.snapshot.username, "while", "the change made before the last is in");
    assert.equal(resumed.snapshot.passwordLength, 8, "the last change is in");
    assert.deepEqual(resumed.snapshot, await served(server.url, session, "login"));
    await session.send("login", { type: "setUsername", value: "after" });
    const after = (await changes.next()).value;
    seen.push(after);
    assert.equal(after.version, 5);
    assert.equal(after.snapshot.username, "after");
    const versions = seen.map((change) => change.version);
    assert.deepEqual(versions, [...versions].sort((a, b) => a - b), "each version at most once, never an older one");
    assert.equal(new Set(versions).size, versions.length);
    assert.ok(statuses.includes("retry") && statuses.lastIndexOf("stream") > statuses.indexOf("retry"), `${statuses}`);
    await changes.return();
  } finally {
    await proxy.close();
    await server.stop();
    await removeDirectory(directory);
  }
});

test("a refused stream falls back to long polling", async () => {
  const server = await startServer(["--store", "memory"], { VIEWHOST_STREAMS_MAX_PER_SESSION: "1" });
  try {
    const session = await new ViewHostClient(server.url, quick).createSession({ features: ["login"] });
    // The session's one stream is taken.
    const taken = new AbortController();
    const stream = await fetch(`${server.url}/v1/sessions/${session.id}/stream`, {
      headers: { Authorization: `Bearer ${session.token}` }, signal: taken.signal,
    });
    assert.equal(stream.status, 200);

    const statuses = [];
    const changes = session.changes({ onStatus: (status) => statuses.push(status) })[Symbol.asyncIterator]();
    const current = (await changes.next()).value;
    assert.equal(current.version, 1);
    assert.equal(current.source, "poll");
    assert.equal(current.sequence, null);
    await session.send("login", { type: "setPassword", value: "secret99" });
    const change = (await changes.next()).value;
    assert.equal(change.version, 2);
    assert.equal(change.source, "poll");
    assert.equal(change.snapshot.passwordValid, true);
    assert.deepEqual(statuses, ["poll"]);
    await changes.return();
    taken.abort();
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.match(metrics, /viewhost_http_requests_total\{route="\/v1\/sessions\/:id\/stream",method="GET",status="429"\} [1-9]/);
  } finally {
    await server.stop();
  }
});

test("the changes end with the session, as a sessionEnded error", async () => {
  const server = await startServer(["--store", "memory"]);
  try {
    const session = await new ViewHostClient(server.url, quick).createSession({ features: ["person"] });
    const changes = session.changes()[Symbol.asyncIterator]();
    await changes.next();
    await session.delete();
    await assert.rejects(changes.next(), (error) => error.kind === "sessionEnded" && error.detail === "the session was deleted");
  } finally {
    await server.stop();
  }
});
