/**
 * Host names no resolver has seen before: each leak-test provider runs the
 * name server of its zone, so a name made up here reaches it only through the
 * resolver the visitor's browser uses, which it then reports back. Our own
 * tag stands in the names (MyIP puts its author's there).
 */
export const TAG = 'netdiag';

/** Where the names' randomness comes from: Math.random and crypto in the browser, fixed values in tests. */
export interface NameSource {
  now: () => number;
  random: () => number;
  bytes: (count: number) => Uint8Array;
}

export const browserNames = (): NameSource => ({
  now: () => Date.now(),
  random: () => Math.random(),
  bytes: (count) => crypto.getRandomValues(new Uint8Array(count)),
});

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Up to 9 base-36 digits of one random number. */
export function base36(source: NameSource): string {
  return source.random().toString(36).slice(2, 11);
}

/** The clock in milliseconds, our tag, then random digits: unique across visitors and attempts. */
export function timedLabel(source: NameSource): string {
  return `${Math.floor(source.now())}${TAG}${base36(source)}`;
}

/** A short label: two letters of the tag, then random digits. */
export function shortLabel(source: NameSource): string {
  return `nd${base36(source)}`;
}

/** `length` letters and digits from cryptographic randomness. */
export function randomLabel(source: NameSource, length: number): string {
  return [...source.bytes(length)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
}
