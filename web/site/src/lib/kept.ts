/** The part of `Storage` the site's remembered choices use, so tests can hand in a map. */
export type KeptStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** This browser's `localStorage`, or null where it is switched off (reading it then throws). */
export function browserStore(): KeptStore | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** A remembered text, or null when nothing is kept or storage refuses. */
export function readKept(store: KeptStore | null, key: string): string | null {
  try {
    return store?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Remembers `value` (null forgets it); a full or refused storage only means the choice lasts for this visit. */
export function writeKept(store: KeptStore | null, key: string, value: string | null): void {
  try {
    if (value === null) store?.removeItem(key);
    else store?.setItem(key, value);
  } catch {
    // Nothing to do: the in-memory choice still holds for this visit.
  }
}
