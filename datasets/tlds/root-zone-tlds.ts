import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { APP_ROOT } from '../../lib/app-root.js';
import type { Upstream } from '../../lib/upstream.js';
import { PeriodicCheck } from '../../lib/periodic-check.js';

export const IANA_TLD_LIST_URL = 'https://data.iana.org/TLD/tlds-alpha-by-domain.txt';
const SHIPPED_TLD_LIST = join(APP_ROOT, 'datasets', 'tlds', 'tlds-alpha-by-domain.txt');
export const REFRESH_INTERVAL_MS = 24 * 60 * 60 * 1000;

// IANA's file is about 10 KB; anything far larger is not it.
const TLD_LIST_MAX_BYTES = 256 * 1024;
// The root zone has held well over a thousand TLDs since 2015 (1,438 in
// January 2026): a shorter file is cut off or a placeholder, and taking it
// would turn real TLDs into 404s.
export const MIN_TLDS = 1000;

const VERSION_LINE = /^# Version (\d+), Last Updated .+$/;
const LABEL = /^[A-Z](?:[A-Z0-9-]{0,61}[A-Z0-9])?$/;

export interface TldList {
  /** IANA's version number (YYYYMMDDNN). */
  version: number;
  /** Every delegated top-level domain, lower-cased (IDNs in their xn-- form). */
  tlds: ReadonlySet<string>;
}

/**
 * IANA's tlds-alpha-by-domain.txt: a `# Version N, Last Updated …` line, then
 * one upper-case label per line. Throws on anything else, so a broken or
 * foreign file never replaces the list in use.
 */
export function parseTldList(text: string): TldList {
  const [first = '', ...rest] = text.split('\n').map((line) => line.trimEnd());
  const version = VERSION_LINE.exec(first)?.[1];
  if (!version) throw new Error('TLD list does not start with a "# Version" line');
  const tlds = new Set<string>();
  for (const line of rest) {
    if (line === '') continue;
    if (!LABEL.test(line)) throw new Error(`TLD list holds a line that is not a top-level label: ${JSON.stringify(line.slice(0, 80))}`);
    tlds.add(line.toLowerCase());
  }
  if (tlds.size < MIN_TLDS) throw new Error(`TLD list holds ${tlds.size} labels, fewer than ${MIN_TLDS}`);
  return { version: Number(version), tlds };
}

/**
 * The top-level domains delegated in the root zone: the copy shipped in the
 * repo at start, replaced by IANA's current list on each (daily) refresh when
 * it parses and is not older. A label outside it has no registry, so no
 * lookup is spent on it.
 */
export class RootZoneTlds {
  private list: TldList;
  private readonly refreshes = new PeriodicCheck({
    id: 'tld-list-refresh',
    run: () => this.refresh(),
    firstAfterMs: 0,
    everyMs: REFRESH_INTERVAL_MS,
    onError: (err) => this.logger.warn({ err }, 'TLD list refresh failed'),
  });

  /** Throws when the shipped copy is missing or malformed: it ships with the code, so that is a broken build. */
  constructor(
    private readonly upstream: Upstream,
    private readonly logger: FastifyBaseLogger,
    shippedFile = SHIPPED_TLD_LIST,
  ) {
    this.list = parseTldList(readFileSync(shippedFile, 'utf8'));
  }

  get version(): number {
    return this.list.version;
  }

  get size(): number {
    return this.list.tlds.size;
  }

  /** True when `tld` (any case) is delegated in the root zone. */
  has(tld: string): boolean {
    return this.list.tlds.has(tld.toLowerCase());
  }

  /** Fetches IANA's list; one that fails, does not parse or is older than the list in use keeps that list. */
  async refresh(): Promise<void> {
    try {
      const res = await this.upstream.text(IANA_TLD_LIST_URL, { maxBytes: TLD_LIST_MAX_BYTES });
      if (res.status !== 200) throw new Error(`IANA answered ${res.status}`);
      const list = parseTldList(res.text);
      if (list.version < this.list.version) throw new Error(`version ${list.version} is older than ${this.list.version} in use`);
      this.list = list;
      this.logger.info({ version: list.version, tlds: list.tlds.size }, 'TLD list refreshed');
    } catch (err) {
      this.logger.warn({ err, version: this.list.version }, 'TLD list refresh failed; keeping the list in use');
    }
  }

  /** Refreshes now, then every 24 hours, until stop(). */
  start(): void {
    this.refreshes.start();
  }

  stop(): void {
    this.refreshes.stop();
  }
}
