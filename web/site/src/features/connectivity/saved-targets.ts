import { CONNECTIVITY_KEY } from '../../lib/storage-keys.js';
import { DEFAULT_SITES, type Site } from './lists.js';
import { defaultTargets, hostOf, MAX_NAME, MAX_TARGETS, type Target } from './targets.js';

function isTarget(value: unknown, first: readonly Site[]): value is Target {
  if (!value || typeof value !== 'object') return false;
  const t = value as Record<string, unknown>;
  return (
    typeof t.id === 'string' &&
    t.id.length > 0 &&
    t.id.length <= 48 &&
    typeof t.name === 'string' &&
    t.name.length <= MAX_NAME &&
    typeof t.group === 'string' &&
    t.group.length <= 32 &&
    typeof t.url === 'string' &&
    // A visitor adds HTTPS sites; plain HTTP only as the operator's first list has it (a stand-in on loopback).
    (t.url.startsWith('https://') || first.some((site) => site.url === t.url)) &&
    hostOf(t.url) !== ''
  );
}

/**
 * The visitor's list as this browser kept it; the defaults on a first visit.
 * Whatever else is stored there (another version's shape, a hand edit) is
 * read as far as it is a list of sites, up to the cap.
 */
export function loadTargets(
  storage: Pick<Storage, 'getItem'> | null,
  first: readonly Site[] = DEFAULT_SITES,
): Target[] {
  let stored: unknown;
  try {
    const text = storage?.getItem(CONNECTIVITY_KEY);
    if (text == null) return defaultTargets(first);
    stored = JSON.parse(text);
  } catch {
    return defaultTargets(first);
  }
  if (!Array.isArray(stored)) return defaultTargets(first);
  const ids = new Set<string>();
  const list: Target[] = [];
  for (const item of stored) {
    if (!isTarget(item, first) || ids.has(item.id) || list.length >= MAX_TARGETS) continue;
    ids.add(item.id);
    list.push({ id: item.id, name: item.name, url: item.url, group: item.group });
  }
  return list;
}

/** Keeps the list in this browser; false when it cannot (storage off or full), and the list lives for this visit only. */
export function saveTargets(storage: Pick<Storage, 'setItem'> | null, list: readonly Target[]): boolean {
  try {
    if (!storage) return false;
    storage.setItem(CONNECTIVITY_KEY, JSON.stringify(list));
    return true;
  } catch {
    return false;
  }
}
