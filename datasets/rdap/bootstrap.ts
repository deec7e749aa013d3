import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ipaddr from 'ipaddr.js';
import type { FastifyBaseLogger } from 'fastify';
import { APP_ROOT } from '../../lib/app-root.js';
import type { Upstream } from '../../lib/upstream.js';
import { PeriodicCheck } from '../../lib/periodic-check.js';

/** The IANA RDAP bootstrap files this service reads (RFC 9224). */
const BOOTSTRAP_FILES = ['dns', 'ipv4', 'ipv6'] as const;
export type BootstrapFile = (typeof BOOTSTRAP_FILES)[number];

const IANA_BOOTSTRAP_BASE = 'https://data.iana.org/rdap/';
const SHIPPED_BOOTSTRAP_DIR = join(APP_ROOT, 'datasets', 'rdap', 'bootstrap');
export const REFRESH_INTERVAL_MS = 24 * 60 * 60 * 1000;

interface BootstrapJson {
  services: Array<[string[], string[]]>;
  publication?: string;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** One bootstrap file, indexed once when it is read so a lookup does no parsing. */
interface Table {
  publication: string;
  /** Every https base URL the file names, for referral checks. */
  bases: string[];
  /** The ipv4/ipv6 files: each prefix with its service's first base URL. */
  ranges: Array<{ range: Range; base: string }>;
  /** The dns file: each top-level domain with the first base URL of the first service listing it. */
  tlds: Map<string, string>;
}

function isBootstrapJson(value: unknown): value is BootstrapJson {
  if (typeof value !== 'object' || value === null) return false;
  const services = (value as { services?: unknown }).services;
  return (
    Array.isArray(services) &&
    services.length > 0 &&
    services.every(
      (s) =>
        Array.isArray(s) &&
        s.length >= 2 &&
        Array.isArray(s[0]) &&
        Array.isArray(s[1]) &&
        (s[0] as unknown[]).every((k) => typeof k === 'string') &&
        (s[1] as unknown[]).every((u) => typeof u === 'string'),
    )
  );
}

function parseRange(cidr: string): Range | undefined {
  try {
    return ipaddr.parseCIDR(cidr);
  } catch {
    return undefined;
  }
}

function toTable(file: BootstrapFile, json: BootstrapJson): Table {
  const table: Table = { publication: json.publication ?? '', bases: [], ranges: [], tlds: new Map() };
  for (const [keys, urls] of json.services) {
    // Only https bases are used: an RDAP answer is trusted as the registry's.
    const bases = urls.filter((u) => /^https:\/\/[^/]+\/(?:.*\/)?$/.test(u));
    table.bases.push(...bases);
    const base = bases[0];
    if (!base) continue;
    for (const key of keys) {
      if (file === 'dns') {
        const tld = key.toLowerCase();
        if (!table.tlds.has(tld)) table.tlds.set(tld, base);
      } else {
        const range = parseRange(key);
        if (range) table.ranges.push({ range, base });
      }
    }
  }
  return table;
}

/**
 * The IANA RDAP bootstrap tables, in memory: the copy shipped in the repo at
 * start, replaced by IANA's current files on each (daily) refresh. A lookup
 * only selects a base URL out of these tables; nothing a caller sends becomes
 * a host.
 */
export class RdapBootstrap {
  private tables = new Map<BootstrapFile, Table>();
  private readonly refreshes = new PeriodicCheck({
    id: 'rdap-bootstrap-refresh',
    run: () => this.refresh(),
    firstAfterMs: 0,
    everyMs: REFRESH_INTERVAL_MS,
    onError: (err) => this.logger.warn({ err }, 'RDAP bootstrap refresh failed'),
  });

  constructor(
    private readonly upstream: Upstream,
    private readonly logger: FastifyBaseLogger,
    shippedDir = SHIPPED_BOOTSTRAP_DIR,
  ) {
    for (const file of BOOTSTRAP_FILES) {
      try {
        const json: unknown = JSON.parse(readFileSync(join(shippedDir, `${file}.json`), 'utf8'));
        if (isBootstrapJson(json)) this.tables.set(file, toTable(file, json));
        else logger.warn({ file }, 'shipped RDAP bootstrap file has an unexpected shape');
      } catch (err) {
        logger.warn({ file, err }, 'shipped RDAP bootstrap file unreadable');
      }
    }
  }

  publication(file: BootstrapFile): string | undefined {
    return this.tables.get(file)?.publication;
  }

  /** The RDAP base URL for an IP address, from the longest matching prefix. */
  baseForIp(ip: string): string | undefined {
    const addr = ipaddr.parse(ip);
    const table = this.tables.get(addr.kind() === 'ipv4' ? 'ipv4' : 'ipv6');
    let best: { bits: number; base: string } | undefined;
    for (const { range, base } of table?.ranges ?? []) {
      if (range[0].kind() === addr.kind() && addr.match(range) && (!best || range[1] > best.bits)) best = { bits: range[1], base };
    }
    return best?.base;
  }

  /** The RDAP base URL for a domain's top-level domain, if its registry runs one. */
  baseForTld(tld: string): string | undefined {
    return this.tables.get('dns')?.tlds.get(tld.toLowerCase());
  }

  /** True when `url` lies under a base URL of some bootstrap table: the only referrals followed. */
  isKnownBase(url: string): boolean {
    for (const table of this.tables.values()) if (table.bases.some((b) => url.startsWith(b))) return true;
    return false;
  }

  /** Fetches every bootstrap file from IANA; a file that fails keeps its previous table. */
  async refresh(): Promise<void> {
    await Promise.all(
      BOOTSTRAP_FILES.map(async (file) => {
        try {
          const json = await this.upstream.okJson<unknown>(`${IANA_BOOTSTRAP_BASE}${file}.json`);
          if (!isBootstrapJson(json)) throw new Error('unexpected bootstrap shape');
          this.tables.set(file, toTable(file, json));
          this.logger.info({ file, publication: json.publication }, 'RDAP bootstrap refreshed');
        } catch (err) {
          this.logger.warn({ file, err }, 'RDAP bootstrap refresh failed; keeping the previous copy');
        }
      }),
    );
  }

  /** Refreshes now, then every 24 hours, until stop(). */
  start(): void {
    this.refreshes.start();
  }

  stop(): void {
    this.refreshes.stop();
  }
}
