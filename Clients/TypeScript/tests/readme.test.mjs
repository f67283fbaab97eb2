// The README's TypeScript client example, run as written (from the repository's root, as the README says), against a
// real server: it prints what the README shows under it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { root, startServer } from "./support/server.mjs";

test("the README's example prints what the README shows", async () => {
  const readme = await readFile(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## TypeScript client\n"));
  const code = /\n```js\n([\s\S]*?)\n```\n/.exec(section)?.[1];
  const shown = /\n```text\n([\s\S]*?)\n```\n/.exec(section)?.[1];
  assert.ok(code && shown, "the section has a js block and the text block of what it prints");
  assert.match(code, /http:\/\/127\.0\.0\.1:8080/);

  const server = await startServer(["--store", "memory"]);
  try {
    const node = spawn(process.execPath, ["--input-type=module"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
    let printed = "";
    let errors = "";
    node.stdout.on("data", (chunk) => { printed += chunk; });
    node.stderr.on("data", (chunk) => { errors += chunk; });
    node.stdin.end(code.replaceAll("http://127.0.0.1:8080", server.url));
    const status = await new Promise((resolveExit) => node.once("exit", resolveExit));
    assert.equal(status, 0, errors);
    assert.equal(printed.trimEnd(), shown);
  } finally {
    await server.stop();
  }
});
