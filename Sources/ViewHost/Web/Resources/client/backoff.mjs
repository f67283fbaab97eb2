/** The wait in milliseconds after `failures` (≥ 1) failures in a row, for a random draw `random` in [0, 1). */
export function delay(backoff, failures, random) {
    const exponent = Math.min(Math.max(failures - 1, 0), 30);
    const full = Math.min(backoff.initial * 2 ** exponent, backoff.maximum);
    return full / 2 + (full * Math.min(Math.max(random, 0), 1)) / 2;
}
