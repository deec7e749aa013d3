import { CHECKLIST_KEY } from '../../lib/storage-keys.js';
import { ALL_ITEMS, GROUPS, type GroupId, type ItemId } from './items.js';

const known = new Set<string>(ALL_ITEMS);

/**
 * The items this browser kept as done. Anything else stored there (an item
 * since removed, a hand edit, another shape) is left out; nothing kept, or
 * storage switched off, is an empty list.
 */
export function loadDone(storage: Pick<Storage, 'getItem'> | null): Set<ItemId> {
  try {
    const stored: unknown = JSON.parse(storage?.getItem(CHECKLIST_KEY) ?? '[]');
    if (!Array.isArray(stored)) return new Set();
    return new Set(stored.filter((id): id is ItemId => typeof id === 'string' && known.has(id)));
  } catch {
    return new Set();
  }
}

/** Keeps the done items in this browser, in the list's order; false when it cannot (storage off or full). */
export function saveDone(storage: Pick<Storage, 'setItem'> | null, done: ReadonlySet<ItemId>): boolean {
  try {
    if (!storage) return false;
    storage.setItem(CHECKLIST_KEY, JSON.stringify(ALL_ITEMS.filter((id) => done.has(id))));
    return true;
  } catch {
    return false;
  }
}

/** Forgets the progress in this browser; false when storage cannot be reached. */
export function clearDone(storage: Pick<Storage, 'removeItem'> | null): boolean {
  try {
    if (!storage) return false;
    storage.removeItem(CHECKLIST_KEY);
    return true;
  } catch {
    return false;
  }
}

export interface Count {
  done: number;
  total: number;
}

/** How many items are done, in each group and overall. */
export function countDone(done: ReadonlySet<ItemId>): { groups: Record<GroupId, Count>; overall: Count } {
  const groups = {} as Record<GroupId, Count>;
  for (const group of GROUPS) {
    groups[group.id] = { done: group.items.filter((item) => done.has(item.id)).length, total: group.items.length };
  }
  return { groups, overall: { done: ALL_ITEMS.filter((id) => done.has(id)).length, total: ALL_ITEMS.length } };
}
