import type { Overview } from '@contract/service-status.js';

/** What the line above the lights says: no round finished yet, no page reached, or when and how many were not. */
export type CheckLine =
  { key: 'notChecked' } | { key: 'unreachedAll'; n: number } | { key: 'checked'; time: string; unreached: number };

/**
 * A round of checks that reached no status page has a time but no light to
 * show: saying "Last checked" above sixteen unknown lights told a visitor the
 * services were checked. A light never read is counted, not dated.
 */
export function checkLine(overview: Overview): CheckLine {
  if (overview.updatedAt === null) return { key: 'notChecked' };
  const unreached = overview.providers.filter((p) => p.checkedAt === null).length;
  if (overview.providers.length > 0 && unreached === overview.providers.length) {
    return { key: 'unreachedAll', n: unreached };
  }
  return { key: 'checked', time: overview.updatedAt, unreached };
}
