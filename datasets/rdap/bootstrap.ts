import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ipaddr from 'ipaddr.js';
import type { FastifyBaseLogger } from 'fastify';
import { APP_ROOT } from '../../lib/app-root.js';
import type { Upstream } from '../../lib/upstream.js';
import { DailyRefreshed } from '../daily-refreshed.js';
import type { DatasetStatus } from '../../operations/dataset-status.js';
import { UpstreamError, expectedFailure } from '../../lib/upstream-failure.js';

/** The IANA RDAP bootstrap files this service reads (RFC 9224). */
const BOOTSTRAP_FILES = ['dns', 'ipv4', 'ipv6'] as const;
export type BootstrapFile = (typeof BOOTSTRAP_FILES)[number];

const IANA_BOOTSTRAP_BASE = 'https://data.iana.org/rdap/';
const SHIPPED_BOOTSTRAP_DIR = join(APP_ROOT, 'datasets', 'rdap', 'bootstrap');

interface BootstrapJson {
  services: Array<[string[], string[]]>;
  publication?: string;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** One bootstrap file, indexed once when it is read so a lookup does no parsing. */
interface Table {
  publication: string;
  /** When it was fetched from IANA; undefined for the copy shipped with the service. */
  fetchedAt?: Date;
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
export class RdapBootstrap extends DailyRefreshed {
  private tables = new Map<BootstrapFile, Table>();

  constructor(upstream: Upstream, logger: FastifyBaseLogger, shippedDir = SHIPPED_BOOTSTRAP_DIR) {
    super(upstream, logger, 'rdap-bootstrap-refresh', 'RDAP bootstrap');
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

  /**
   * For /readyz and the metrics: `loaded` once every file has come from IANA
   * and the last refresh worked, `stale` on the shipped copy or after a failed
   * refresh. The date is the oldest file's: when it was fetched, or the
   * shipped copy's publication date.
   */
  status(): DatasetStatus {
    const tables = BOOTSTRAP_FILES.map((file) => this.tables.get(file));
    if (tables.some((t) => t === undefined)) return { state: 'missing', updatedAt: null };
    const dates = tables.map((t) => t!.fetchedAt ?? new Date(t!.publication)).filter((d) => !Number.isNaN(d.getTime()));
    const updatedAt = dates.length === 0 ? null : new Date(Math.min(...dates.map((d) => d.getTime())));
    const shipped = tables.some((t) => t!.fetchedAt === undefined);
    return { state: shipped || this.lastAttemptFailed ? 'stale' : 'loaded', updatedAt };
  }

  /** The RDAP base URL for an IP address, from the longest matching prefix. */
  baseForIp(ip: string): string | undefined {
    const addr = ipaddr.parse(ip);
    const table = this.tables.get(addr.kind() === 'ipv4' ? 'ipv4' : 'ipv6');
    let best: { bits: number; base: string } | undefined;
    for (const { range, base } of table?.ranges ?? []) {
      if (range[0].kind() === addr.kind() && addr.match(range) && (!best || range[1] > best.bits)) {
        best = { bits: range[1], base };
      }
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

  /**
   * Fetches every bootstrap file from IANA; a file that fails keeps its
   * previous table. Expected failures (no network, IANA away) make one line
   * for all three files.
   */
  async refresh(): Promise<void> {
    const failed: BootstrapFile[] = [];
    const reasons = new Set<string>();
    await Promise.all(
      BOOTSTRAP_FILES.map(async (file) => {
        try {
          const json = await this.upstream.okJson<unknown>(`${IANA_BOOTSTRAP_BASE}${file}.json`);
          if (!isBootstrapJson(json)) throw new UpstreamError('unexpected bootstrap shape');
          this.tables.set(file, { ...toTable(file, json), fetchedAt: new Date() });
          this.logger.info({ file, publication: json.publication }, 'RDAP bootstrap refreshed');
        } catch (err) {
          failed.push(file);
          const reason = expectedFailure(err, { log: this.logger, step: 'RDAP bootstrap refresh', fields: { file } });
          if (reason) reasons.add(reason);
        }
      }),
    );
    this.lastAttemptFailed = failed.length > 0;
    if (reasons.size === 0) return;
    const reason = [...reasons].join('; ');
    const kept = this.status().updatedAt?.toISOString().slice(0, 10) ?? 'unknown';
    this.logger.warn(
      { files: failed, reason },
      `RDAP bootstrap not refreshed from IANA (${reason}): WHOIS finds registries in the tables it has (dated ${kept}); tried again in 24 hours`,
    );
  }
}
