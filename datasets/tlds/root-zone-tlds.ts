import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { APP_ROOT } from '../../lib/app-root.js';
import type { Upstream } from '../../lib/upstream.js';
import { DailyRefreshed } from '../daily-refreshed.js';
import type { DatasetStatus } from '../../operations/dataset-status.js';
import { UpstreamError, expectedFailure } from '../../lib/upstream-failure.js';

export const IANA_TLD_LIST_URL = 'https://data.iana.org/TLD/tlds-alpha-by-domain.txt';
const SHIPPED_TLD_LIST = join(APP_ROOT, 'datasets', 'tlds', 'tlds-alpha-by-domain.txt');

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
    if (!LABEL.test(line)) {
      throw new Error(`TLD list holds a line that is not a top-level label: ${JSON.stringify(line.slice(0, 80))}`);
    }
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
export class RootZoneTlds extends DailyRefreshed {
  private list: TldList;
  /** When the list in use came from IANA; undefined for the shipped copy. */
  private fetchedAt: Date | undefined;

  /** Throws when the shipped copy is missing or malformed: it ships with the code, so that is a broken build. */
  constructor(upstream: Upstream, logger: FastifyBaseLogger, shippedFile = SHIPPED_TLD_LIST) {
    super(upstream, logger, 'tld-list-refresh', 'TLD list');
    this.list = parseTldList(readFileSync(shippedFile, 'utf8'));
  }

  get version(): number {
    return this.list.version;
  }

  get size(): number {
    return this.list.tlds.size;
  }

  /**
   * For /readyz and the metrics: `loaded` once IANA's list is in use and the
   * last refresh worked, `stale` on the shipped copy or after a failed refresh;
   * dated by the fetch, or for the shipped copy by its version's date.
   */
  status(): DatasetStatus {
    const updatedAt = this.fetchedAt ?? versionDate(this.list.version);
    return { state: this.fetchedAt && !this.lastAttemptFailed ? 'loaded' : 'stale', updatedAt };
  }

  /** True when `tld` (any case) is delegated in the root zone. */
  has(tld: string): boolean {
    return this.list.tlds.has(tld.toLowerCase());
  }

  /** Fetches IANA's list; one that fails, does not parse or is older than the list in use keeps that list. */
  async refresh(): Promise<void> {
    try {
      const res = await this.upstream.text(IANA_TLD_LIST_URL, { maxBytes: TLD_LIST_MAX_BYTES });
      if (res.status !== 200) throw new UpstreamError(`IANA answered ${res.status}`, res.status);
      const list = parseTldList(res.text);
      if (list.version < this.list.version) {
        throw new Error(`version ${list.version} is older than ${this.list.version} in use`);
      }
      this.list = list;
      this.fetchedAt = new Date();
      this.lastAttemptFailed = false;
      this.logger.info({ version: list.version, tlds: list.tlds.size }, 'TLD list refreshed');
    } catch (err) {
      this.lastAttemptFailed = true;
      const reason = expectedFailure(err, {
        log: this.logger,
        step: 'TLD list refresh',
        fields: { version: this.list.version },
      });
      if (reason) {
        this.logger.warn(
          { reason, version: this.list.version },
          `TLD list not refreshed from IANA (${reason}): WHOIS checks top-level domains against the list it has (version ${this.list.version}); tried again in 24 hours`,
        );
      }
    }
  }
}

/** The day a list version (YYYYMMDDNN) names, at midnight UTC; null for a number that is not one. */
function versionDate(version: number): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})\d{2}$/.exec(String(version));
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(date.getTime()) ? null : date;
}
