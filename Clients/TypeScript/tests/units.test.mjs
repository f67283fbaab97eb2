// The client's pure parts: the event-stream parser in any split, RFC 6902 patches, the backoff, the entity tags, an
// action's typed placeholders.
import assert from "node:assert/strict";
import { test } from "node:test";
import { clientModule } from "./support/server.mjs";

const { ServerSentEventParser, applyPatch, delay, fillAction, versionOf } = await import(clientModule);

const stream = "retry: 2000\r\n\r\n: a comment\nid: 7\nevent: chat\ndata: {\"a\":1,\ndata: \"b\":2}\n\n"
  + "id: 8\r\nevent: chat.patch\r\ndata: []\r\n\r\ndata: no event name\r\r";

test("the event-stream parser gives the same events whatever the chunks", () => {
  const expected = [
    { event: "chat", data: "{\"a\":1,\n\"b\":2}", id: "7" },
    { event: "chat.patch", data: "[]", id: "8" },
    { event: "message", data: "no event name", id: "8" },
  ];
  for (let size = 1; size <= stream.length; size++) {
    const parser = new ServerSentEventParser();
    const events = [];
    for (let at = 0; at < stream.length; at += size) events.push(...parser.feed(stream.slice(at, at + size)));
    assert.deepEqual(events, expected, `chunks of ${size}`);
    assert.equal(parser.retry, 2000);
  }
});

test("patches apply as RFC 6902 says, and a patch that does not apply throws", () => {
  const document = { version: 1, list: ["a", "c"], nested: { "x/y": 1, "m~n": 2 } };
  const patched = applyPatch(document, [
    { op: "replace", path: "/version", value: 2 },
    { op: "add", path: "/list/1", value: "b" },
    { op: "add", path: "/list/-", value: "d" },
    { op: "remove", path: "/nested/x~1y" },
    { op: "move", from: "/nested/m~0n", path: "/moved" },
    { op: "copy", from: "/list/0", path: "/first" },
    { op: "test", path: "/first", value: "a" },
  ]);
  assert.deepEqual(patched, { version: 2, list: ["a", "b", "c", "d"], nested: {}, moved: 2, first: "a" });
  assert.deepEqual(document.list, ["a", "c"], "the document patched is not changed");
  assert.throws(() => applyPatch(document, [{ op: "remove", path: "/missing" }]));
  assert.throws(() => applyPatch(document, [{ op: "add", path: "/list/9", value: 1 }]));
  assert.throws(() => applyPatch(document, [{ op: "test", path: "/version", value: 3 }]));
});

test("the backoff doubles from its first wait up to its longest, half of it random", () => {
  const backoff = { initial: 100, maximum: 1000 };
  assert.equal(delay(backoff, 1, 0), 50);
  assert.equal(delay(backoff, 1, 1), 100);
  assert.equal(delay(backoff, 3, 0.5), 300);
  assert.equal(delay(backoff, 40, 1), 1000);
});

test("an entity tag names a version, weak or strong", () => {
  assert.equal(versionOf("\"7\""), 7);
  assert.equal(versionOf("W/\"12\""), 12);
  assert.equal(versionOf("\"x\""), null);
  // A member's own view of a feature that depends on its viewer: the version, a dot, its id.
  assert.equal(versionOf("\"7.pbea\""), 7);
  assert.equal(versionOf("W/\"7.pbea\""), 7);
  assert.equal(versionOf("\"7.\""), null);
});

test("an action's placeholders are filled as its inputs say: an integer as a number, an enum's value checked", () => {
  const action = {
    method: "POST", href: "/v1/sessions/s/retro/events",
    body: { type: "addCard", board: "b1", text: "{text}", votes: "{votes}", column: "{column}" },
    inputs: { votes: { type: "integer" }, column: { type: "string", enum: ["went well", "to improve"] } },
  };
  assert.deepEqual(fillAction(action, { text: "Ship it", votes: "3", column: "to improve" }),
    { type: "addCard", board: "b1", text: "Ship it", votes: 3, column: "to improve" });
  assert.deepEqual(fillAction(action, { text: "", votes: 2, column: "went well" }).votes, 2);
  const refusal = (params) => { try { fillAction(action, params); return null; } catch (error) { return error; } };
  assert.equal(refusal({ text: "a", votes: "three", column: "went well" })?.detail,
    "the 'addCard' action's {votes} must be an integer");
  assert.equal(refusal({ text: "a", votes: "1", column: "nowhere" })?.detail,
    "the 'addCard' action's {column} must be one of went well, to improve");
  assert.equal(refusal({ text: "a", column: "went well" })?.kind, "invalidRequest", "a missing value is never posted");
  // An action without `inputs` posts strings, as it always did.
  assert.deepEqual(fillAction({ ...action, inputs: undefined }, { text: "a", votes: "3", column: "x" }).votes, "3");
});

test("a library action (an invitation: no type, a list of features) is filled as it is, its list untouched", () => {
  const invite = {
    method: "POST", href: "/v1/sessions/s1/invitations",
    body: { purpose: "contact", features: ["chat"], name: "{name}" },
  };
  assert.deepEqual(fillAction(invite, { name: "Ann" }), { purpose: "contact", features: ["chat"], name: "Ann" });
  assert.throws(() => fillAction(invite, {}),
    (error) => error.kind === "invalidRequest" && error.detail.includes("'/v1/sessions/s1/invitations' action needs a value for {name}"));
});
