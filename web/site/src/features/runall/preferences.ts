import { readKept, writeKept, type KeptStore } from '../../lib/kept.js';
import { RUNALL_KEY } from '../../lib/storage-keys.js';

/** The run-all page's tests, in the order it runs them. */
export const TESTS = ['addresses', 'connectivity', 'webrtc', 'dnsleak', 'speed'] as const;
export type TestId = (typeof TESTS)[number];

/** How many address cards the addresses card shows at most: the report's own bound. */
export const MAX_CARDS = 8;

/** The visitor's choices for the run-all page, remembered in this browser. */
export interface RunAllPreferences {
  /** Each card shows its one-line summary only. */
  simple: boolean;
  /** The tests that run by themselves: when the page opens and with "Run all"; the others wait for their card's button. */
  auto: TestId[];
  /** Address cards shown, 1 to MAX_CARDS. */
  cards: number;
}

// The speed test moves the most data: it runs only when the visitor asks for it.
export const DEFAULTS: RunAllPreferences = {
  simple: false,
  auto: ['addresses', 'connectivity', 'webrtc', 'dnsleak'],
  cards: 4,
};

/** The kept choices; anything unreadable (nothing kept, an old or hand-edited value) falls back to the defaults, field by field. */
export function readPreferences(store: KeptStore | null): RunAllPreferences {
  let kept: Partial<Record<keyof RunAllPreferences, unknown>> = {};
  try {
    kept = JSON.parse(readKept(store, RUNALL_KEY) ?? '{}') as typeof kept;
  } catch {
    // Unreadable: the defaults.
  }
  const auto = Array.isArray(kept.auto) ? TESTS.filter((test) => (kept.auto as unknown[]).includes(test)) : null;
  const cards = Number(kept.cards);
  return {
    simple: typeof kept.simple === 'boolean' ? kept.simple : DEFAULTS.simple,
    auto: auto ?? DEFAULTS.auto,
    cards: Number.isInteger(cards) && cards >= 1 && cards <= MAX_CARDS ? cards : DEFAULTS.cards,
  };
}

export function savePreferences(store: KeptStore | null, preferences: RunAllPreferences): void {
  writeKept(store, RUNALL_KEY, JSON.stringify(preferences));
}
