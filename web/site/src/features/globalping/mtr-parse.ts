import { isIp } from '../../lib/ip.js';

/** One hop of an MTR as Globalping's probe printed it; a value the probe did not print is absent. */
export interface Hop {
  n: number;
  /** `AS???` (the probe could not tell) is null. */
  asn?: number | null;
  host?: string;
  ip?: string;
  lossPct?: number;
  drop?: number;
  rcv?: number;
  sntCount?: number;
  lastMs?: number;
  avgMs?: number;
  bestMs?: number;
  worstMs?: number;
  stdevMs?: number;
  javgMs?: number;
}

export type HopColumn = Exclude<keyof Hop, 'n' | 'asn' | 'host' | 'ip'>;

// The header's words, as mtr prints them in its report and wide modes.
const COLUMNS: Record<string, HopColumn> = {
  'loss%': 'lossPct',
  loss: 'lossPct',
  drop: 'drop',
  rcv: 'rcv',
  snt: 'sntCount',
  last: 'lastMs',
  avg: 'avgMs',
  best: 'bestMs',
  wrst: 'worstMs',
  stdev: 'stdevMs',
  javg: 'javgMs',
};
const COUNTS = new Set<HopColumn>(['drop', 'rcv', 'sntCount']);
export const MAX_HOPS = 64;

const HOP_LINE = /^\s*(\d+)\.(?:\|--)?(?:\s+(.*))?$/;
const NUMBER = /^\d+(?:\.\d+)?%?$/;

function hostPart(tokens: string[], hop: Hop): void {
  const words = [...tokens];
  const asn = /^AS(\d+|\?\?\?)$/i.exec(words[0] ?? '');
  if (asn) {
    hop.asn = asn[1] === '???' ? null : Number(asn[1]);
    words.shift();
  }
  const rest = words.join(' ');
  if (!rest || rest === '???' || /^\(waiting/i.test(rest)) return;
  const named = /^(.*\S)\s+\(([^()\s]+)\)$/.exec(rest);
  if (named && isIp(named[2]!)) {
    hop.host = named[1]!.slice(0, 128);
    hop.ip = named[2]!;
  } else if (isIp(rest)) {
    hop.ip = rest;
  } else {
    hop.host = rest.slice(0, 128);
  }
}

/**
 * The hops in an MTR's raw text (mtr's report or wide output). The header is
 * the first line naming "host" that is no hop; a hop line is `N.` (or
 * `N.|--`), the host part (an optional `AS<n>`, a name with its address in
 * brackets, a bare address, or `???` when nothing answered), then numbers
 * that line up with the header's columns from the right. Hops 1 to 64, each
 * once.
 */
export function parseMtr(raw: string): Hop[] {
  let columns: HopColumn[] | null = null;
  const hops: Hop[] = [];
  const seen = new Set<number>();
  for (const line of raw.split(/\r?\n/)) {
    const hopLine = HOP_LINE.exec(line);
    if (!hopLine) {
      if (!columns && /host/i.test(line)) {
        columns = line
          .trim()
          .split(/\s+/)
          .flatMap((word) => COLUMNS[word.toLowerCase()] ?? []);
      }
      continue;
    }
    const n = Number(hopLine[1]);
    if (n < 1 || n > MAX_HOPS || seen.has(n)) continue;
    seen.add(n);
    const hop: Hop = { n };
    const tokens = (hopLine[2] ?? '').trim().split(/\s+/).filter(Boolean);
    const known = columns ?? [];
    let numbers = 0;
    while (numbers < known.length && numbers < tokens.length && NUMBER.test(tokens[tokens.length - 1 - numbers]!)) {
      numbers++;
    }
    const values = tokens.splice(tokens.length - numbers, numbers);
    const named = known.slice(known.length - numbers);
    named.forEach((column, i) => {
      const value = parseFloat(values[i]!);
      if (Number.isFinite(value)) hop[column] = COUNTS.has(column) ? Math.round(value) : value;
    });
    hostPart(tokens, hop);
    hops.push(hop);
  }
  return hops.sort((a, b) => a.n - b.n);
}
