/** `ms` milliseconds, or until `signal` aborts (then it rejects). */
export function sleep(ms, signal) {
    return new Promise((resolve, reject) => {
        if (signal?.aborted) {
            reject(new Error("aborted"));
            return;
        }
        const timer = setTimeout(() => { signal?.removeEventListener("abort", stop); resolve(); }, ms);
        const stop = () => { clearTimeout(timer); reject(new Error("aborted")); };
        signal?.addEventListener("abort", stop, { once: true });
    });
}
/** 128 random bits in hex: from Web Crypto where there is one (browsers, Node 19 and later), else `Math.random`
 * (Node 18 has no global `crypto`; a key needs to be unique, not secret). */
export function randomKey() {
    const bytes = new Uint8Array(16);
    const crypto = globalThis.crypto;
    if (crypto?.getRandomValues)
        crypto.getRandomValues(bytes);
    else
        for (let i = 0; i < bytes.length; i++)
            bytes[i] = Math.floor(Math.random() * 256);
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
/** The defaults, with `given` in their place. */
export function resolveOptions(given = {}) {
    return {
        sendAttempts: 6,
        sendBackoff: { initial: 200, maximum: 5000 },
        reconnectBackoff: { initial: 250, maximum: 15000 },
        longPollWait: 30000,
        fallbackPeriod: 30000,
        idleTimeout: 60000,
        fetch: (input, init) => fetch(input, init),
        sleep,
        random: Math.random,
        makeIdempotencyKey: randomKey,
        ...given,
    };
}
