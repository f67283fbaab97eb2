import type { Backoff } from "./backoff.mjs";

/** How a client retries, reconnects and waits. The defaults suit an app; tests shorten the waits. Times are in
 * milliseconds. */
export interface ClientOptions {
  /** How many times one logical send is tried in all (the first try included) when no answer comes or the server
   * asks to retry; every try carries the same `Idempotency-Key`. */
  sendAttempts: number;
  /** Waits between tries of a send. */
  sendBackoff: Backoff;
  /** Waits between reconnects of a change stream that failed (the server's `retry:` is the least wait). */
  reconnectBackoff: Backoff;
  /** How long one long poll waits (the server allows at most 60 seconds). */
  longPollWait: number;
  /** How long changes are long polled after a stream was refused (`429`, `503`) before a stream is tried again (at
   * least the answer's `Retry-After`). */
  fallbackPeriod: number;
  /** A stream that receives nothing for this long is dropped and resumed (the server sends a comment every 15 s). */
  idleTimeout: number;
  /** `fetch`: the global one unless given (a test's, or one with a proxy). */
  fetch: typeof fetch;
  /** Waits `ms`, or rejects once `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A random draw in [0, 1) for the backoff's jitter. */
  random: () => number;
  /** A new `Idempotency-Key` for each logical send. */
  makeIdempotencyKey: () => string;
}

/** `ms` milliseconds, or until `signal` aborts (then it rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(new Error("aborted")); return; }
    const timer = setTimeout(() => { signal?.removeEventListener("abort", stop); resolve(); }, ms);
    const stop = () => { clearTimeout(timer); reject(new Error("aborted")); };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/** 128 random bits in hex: from Web Crypto where there is one (browsers, Node 19 and later), else `Math.random`
 * (Node 18 has no global `crypto`; a key needs to be unique, not secret). */
export function randomKey(): string {
  const bytes = new Uint8Array(16);
  const crypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto;
  if (crypto?.getRandomValues) crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The defaults, with `given` in their place. */
export function resolveOptions(given: Partial<ClientOptions> = {}): ClientOptions {
  return {
    sendAttempts: 6,
    sendBackoff: { initial: 200, maximum: 5_000 },
    reconnectBackoff: { initial: 250, maximum: 15_000 },
    longPollWait: 30_000,
    fallbackPeriod: 30_000,
    idleTimeout: 60_000,
    fetch: (input, init) => fetch(input, init),
    sleep,
    random: Math.random,
    makeIdempotencyKey: randomKey,
    ...given,
  };
}
