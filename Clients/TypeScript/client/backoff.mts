/** How long to wait before the next attempt after `failures` failures in a row: exponential from `initial`, at most
 * `maximum` (milliseconds), with "equal jitter" (half fixed, half random) so clients cut off together do not come
 * back together. */
export interface Backoff {
  initial: number;
  maximum: number;
}

/** The wait in milliseconds after `failures` (≥ 1) failures in a row, for a random draw `random` in [0, 1). */
export function delay(backoff: Backoff, failures: number, random: number): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const full = Math.min(backoff.initial * 2 ** exponent, backoff.maximum);
  return full / 2 + (full * Math.min(Math.max(random, 0), 1)) / 2;
}
