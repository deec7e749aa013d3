import type { DnsRow } from '@contract/dnsresolver.js';

/** One sentence of the summary above the table: its text's key and the count it speaks of. */
export interface SummaryLine {
  key: 'noSuchName' | 'gaveAddresses' | 'gaveRecords' | 'noRecords' | 'noneAnswered' | 'disagree' | 'agree';
  n: number;
}

const ADDRESS_TYPES = new Set(['A', 'AAAA']);

/**
 * What the resolvers said, in words: a name some call non-existent
 * (NXDOMAIN) while others answer it is said as both, since a resolver that
 * answers a name that does not exist is rewriting NXDOMAIN; only where every
 * resolver that gave records agrees is it "the same records".
 */
export function dnsSummary(
  rows: ReadonlyArray<{ status: DnsRow['status']; differs: boolean }>,
  type: string,
): SummaryLine[] {
  const count = (status: DnsRow['status']) => rows.filter((row) => row.status === status).length;
  const nxdomain = count('nxdomain');
  const records = count('records');
  if (nxdomain > 0) {
    const gave: SummaryLine['key'] = ADDRESS_TYPES.has(type) ? 'gaveAddresses' : 'gaveRecords';
    return records > 0
      ? [
          { key: 'noSuchName', n: nxdomain },
          { key: gave, n: records },
        ]
      : [{ key: 'noSuchName', n: nxdomain }];
  }
  if (records === 0) return [count('nodata') > 0 ? { key: 'noRecords', n: 0 } : { key: 'noneAnswered', n: 0 }];
  const differs = rows.filter((row) => row.differs).length;
  return [differs ? { key: 'disagree', n: differs } : { key: 'agree', n: records }];
}
