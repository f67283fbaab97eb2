// The real server for the client's tests: `viewhost serve --port 0` (the binary in VIEWHOST_BINARY, else the debug
// build), its address read from the readiness line, stopped (or killed) by the test that started it.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
export const binary = process.env.VIEWHOST_BINARY ?? join(root, ".build/debug/viewhost");
/** The client, as the server embeds it (the committed output of Clients/TypeScript/compile.sh). */
export const clientModule = join(root, "Sources/ViewHost/Web/Resources/client/index.mjs");

/** A fresh directory, removed by `removeDirectory`. */
export async function makeDirectory() {
  return await mkdtemp(join(tmpdir(), "viewhost-ts-"));
}

export async function removeDirectory(path) {
  await rm(path, { recursive: true, force: true });
}

/** Starts the server with `args` after `serve --port 0` and `env` added to the environment; resolves once it listens. */
export async function startServer(args = [], env = {}) {
  const child = spawn(binary, ["serve", "--port", "0", ...args], {
    cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr.on("data", (chunk) => { errors = (errors + chunk).slice(-4000); });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolveURL, reject) => {
    const timer = setTimeout(() => reject(new Error(`no readiness line within 30 s: ${errors}`)), 30_000);
    child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`the server exited (${code}): ${errors}`)); });
    lines.once("line", (line) => {
      clearTimeout(timer);
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) resolveURL(match[1]); else reject(new Error(`not a readiness line: ${line}`));
    });
  });
  const exited = new Promise((resolveExit) => child.once("exit", resolveExit));
  return {
    url,
    port: Number(new URL(url).port),
    /** SIGTERM, and waits for the exit. */
    async stop() { if (child.exitCode === null) child.kill("SIGTERM"); await exited; },
    /** SIGKILL (kill -9), and waits for the exit. */
    async kill() { if (child.exitCode === null) child.kill("SIGKILL"); await exited; },
  };
}

/** Waits until `condition()` is true, polling, for at most `seconds`. */
export async function eventually(condition, what, seconds = 20) {
  const deadline = Date.now() + seconds * 1000 * Number(process.env.VIEWHOST_TEST_TIMEOUT_SCALE ?? 1);
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
