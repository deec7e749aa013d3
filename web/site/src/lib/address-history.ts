import { isIp } from './ip.js';
import { readKept, writeKept, type KeptStore } from './kept.js';
import { HISTORY_KEY } from './storage-keys.js';

/** One address the home page saw for this visitor: when first and last, and where the sources placed it. */
export interface HistoryEntry {
  ip: string;
  /** ISO 3166 code, `""` when no source placed it. */
  country: string;
  firstSeen: string;
  lastSeen: string;
}

/** Enough for months of a changing home address; more would only fill the visitor's storage. */
export const HISTORY_CAP = 50;

const isDate = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value));

function isEntry(value: unknown): value is HistoryEntry {
  if (!value || typeof value !== 'object') return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.ip === 'string' &&
    isIp(e.ip) &&
    typeof e.country === 'string' &&
    /^([A-Z]{2})?$/.test(e.country) &&
    isDate(e.firstSeen) &&
    isDate(e.lastSeen)
  );
}

/** The kept history, newest first, as far as it is valid: a damaged store gives what can be read, or nothing. */
export function readHistory(store: KeptStore | null): HistoryEntry[] {
  const kept = readKept(store, HISTORY_KEY);
  if (!kept) return [];
  try {
    const parsed: unknown = JSON.parse(kept);
    return Array.isArray(parsed) ? parsed.filter(isEntry).slice(0, HISTORY_CAP) : [];
  } catch {
    return [];
  }
}

/**
 * The history with `ip` seen at `at`: the same address as the newest entry only moves its last sighting (a
 * reload is no new address); another one goes on top, and the oldest past the cap drop off.
 */
export function withSighting(history: HistoryEntry[], ip: string, country: string, at: Date): HistoryEntry[] {
  const when = at.toISOString();
  const [latest, ...rest] = history;
  if (latest?.ip === ip) return [{ ...latest, country: country || latest.country, lastSeen: when }, ...rest];
  return [{ ip, country, firstSeen: when, lastSeen: when }, ...history].slice(0, HISTORY_CAP);
}

export function saveHistory(store: KeptStore | null, history: HistoryEntry[]): void {
  writeKept(store, HISTORY_KEY, history.length ? JSON.stringify(history) : null);
}
