import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Reader, type AsnResponse, type CityResponse } from 'maxmind';
import type { DatasetStatus, LoadedDatabase } from '../../operations/dataset-status.js';
import type { Upstream } from '../../lib/upstream.js';
import { AUTO_UPDATE, PeriodicCheck } from '../../lib/periodic-check.js';
import { memoryCache } from '../../lib/memory-cache.js';
import { EDITION_KEYS, type DatabaseSource, type Edition, type GeoProvider } from './database-source.js';
import { MaxmindSource } from './maxmind-source.js';
import { DbipSource } from './dbip-source.js';
import { UpstreamError, expectedFailure } from '../../lib/upstream-failure.js';

export type { Edition, GeoProvider } from './database-source.js';
export { EDITIONS } from './maxmind-source.js';

// A database whose type does not say what it is would silently answer nulls;
// GeoLite2, GeoIP2 and DB-IP's compatible "lite" files all name it.
const TYPE_PATTERN: Record<Edition, RegExp> = { city: /city/i, asn: /asn/i };

const BOOT_DOWNLOAD_CAP_MS = 5 * 60 * 1000;
const WATCH_DEBOUNCE_MS = 300;
// GeoLite2-City is about 35 MB packed, DB-IP's city file about 70 MB gzip'd
// and the commercial files more. Far past those, a download is refused.
const MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024;
const WORK_PREFIX = '.download-';
// Decoded records each reader keeps, so hot networks are decoded once.
const DECODED_RECORDS_MAX = 20_000;

type Readers = { city?: Reader<CityResponse>; asn?: Reader<AsnResponse> };

export interface GeoDatabasesOptions {
  /** The folder holding the .mmdb files (DATA_DIR/geo). */
  dir: string;
  upstream: Upstream;
  /** GEODB_PROVIDER: whose databases are downloaded; MaxMind's unless set. */
  provider?: GeoProvider;
  accountId: string;
  licenseKey: string;
  logger: FastifyBaseLogger;
  /** The cap on the boot download and on each scheduled download; 5 minutes unless a test shortens it. */
  downloadCapMs?: number;
  /** The most bytes a download may have; 256 MiB unless a test lowers it. */
  maxArchiveBytes?: number;
  /** Shutdown: a download in progress is abandoned and its temporary folder removed. */
  signal?: AbortSignal;
  /** How often a download logs its progress; 5 s unless a test shortens it. */
  progressEveryMs?: number;
  /** The clock that says which month's DB-IP release is current; a test pins it. */
  now?: () => Date;
}

/**
 * Opens a database held in memory and checks that it is the edition it should
 * be and that its search tree answers; throws otherwise. Reader construction
 * only parses the metadata, so this never holds the event loop for long.
 */
export function openDatabase<E extends Edition>(buffer: Buffer, edition: E): NonNullable<Readers[E]> {
  const reader = new Reader<CityResponse & AsnResponse>(buffer, {
    cache: memoryCache<string | number, object>({ max: DECODED_RECORDS_MAX }),
  });
  if (!TYPE_PATTERN[edition].test(reader.metadata.databaseType)) {
    throw new Error(`${edition} database: unexpected database type ${JSON.stringify(reader.metadata.databaseType)}`);
  }
  reader.get('1.1.1.1');
  reader.get('2001:4860::1');
  return reader as NonNullable<Readers[E]>;
}

/**
 * Who made a loaded database, from the type its metadata names
 * ("GeoLite2-City", "GeoIP2-City", "DBIP-City-Lite", …): what /readyz reports
 * and whose attribution the site shows, whatever the settings asked for.
 */
export function describeDatabase(databaseType: string): LoadedDatabase {
  const provider = /^dbip/i.test(databaseType) ? 'dbip' : /^geo(lite|ip)2/i.test(databaseType) ? 'maxmind' : 'other';
  return { provider, edition: databaseType };
}

/** The local city and ASN databases: loading, downloading, scheduled updates and hand replacement. */
export class GeoDatabases {
  private readonly readers: Readers = {};
  /** Identity (inode, size, mtime) of the file each reader came from, so our own writes are not reloaded twice. */
  private readonly loadedFrom: Partial<Record<Edition, string>> = {};
  /** Editions whose last download or update attempt failed; the copy in use, if any, is then stale. */
  private readonly lastAttemptFailed = new Set<Edition>();
  private readonly debounce = new Map<Edition, NodeJS.Timeout>();
  private watcher?: FSWatcher;
  private readonly updates: PeriodicCheck;
  private running: Promise<void> = Promise.resolve();
  private readonly log: FastifyBaseLogger;
  private readonly source: DatabaseSource;

  constructor(private readonly options: GeoDatabasesOptions) {
    this.log = options.logger.child({ dataset: 'geo' });
    const context = {
      upstream: options.upstream,
      log: this.log,
      maxDownloadBytes: options.maxArchiveBytes ?? MAX_DOWNLOAD_BYTES,
      signal: options.signal,
      progressEveryMs: options.progressEveryMs,
    };
    this.source =
      options.provider === 'dbip'
        ? new DbipSource(context, options.now)
        : new MaxmindSource(context, options.accountId, options.licenseKey);
    this.updates = new PeriodicCheck({
      id: 'geo-databases-update',
      run: () => this.checkForUpdates(),
      ...AUTO_UPDATE,
      onError: (err) => this.log.warn({ err }, 'geo database update check failed'),
    });
  }

  get city(): Reader<CityResponse> | undefined {
    return this.readers.city;
  }

  get asn(): Reader<AsnResponse> | undefined {
    return this.readers.asn;
  }

  private get capMs(): number {
    return this.options.downloadCapMs ?? BOOT_DOWNLOAD_CAP_MS;
  }

  private name(edition: Edition): string {
    return this.source.name(edition);
  }

  path(edition: Edition): string {
    return join(this.options.dir, `${this.name(edition)}.mmdb`);
  }

  /** For /readyz and the metrics: whether the edition is loaded, its build date and whose database it is. */
  status(edition: Edition): DatasetStatus {
    const reader = this.readers[edition];
    if (!reader) return { state: 'missing', updatedAt: null };
    return {
      state: this.lastAttemptFailed.has(edition) ? 'stale' : 'loaded',
      updatedAt: reader.metadata.buildEpoch,
      database: describeDatabase(reader.metadata.databaseType),
    };
  }

  /**
   * The boot step: downloads each missing database (when the source can,
   * within the 5-minute cap), then loads both. What stays missing is said in
   * one line, with what runs degraded and what would fix it.
   */
  async bootstrap(): Promise<void> {
    await mkdir(this.options.dir, { recursive: true });
    await this.removeStaleWork();
    const missing: Edition[] = [];
    for (const edition of EDITION_KEYS) if (!(await exists(this.path(edition)))) missing.push(edition);
    const reasons = new Set<string>();
    let refused = false;
    const { missingAccess, refusedHint } = this.source;
    if (missing.length > 0 && missingAccess === null) {
      const deadline = Date.now() + this.capMs;
      for (const edition of missing) {
        try {
          await this.download(edition, deadline);
        } catch (err) {
          this.lastAttemptFailed.add(edition);
          const reason = expectedFailure(err, {
            log: this.log,
            step: 'geo database boot download',
            fields: { edition: this.name(edition) },
          });
          if (reason) reasons.add(reason);
          if (err instanceof UpstreamError && (err.status === 401 || err.status === 403)) refused = true;
        }
      }
    }
    await this.loadAll();
    const absent = EDITION_KEYS.filter((edition) => !this.readers[edition]).map((edition) => this.name(edition));
    if (absent.length === 0) return;
    const degraded = `geo databases missing (${absent.join(', ')}): /api/geo-local answers 503`;
    const reason = [...reasons].join('; ');
    if (missingAccess !== null) {
      this.log.warn(
        { missing: absent, dir: this.options.dir },
        `${degraded}; ${missingAccess}, or put the .mmdb files in ${this.options.dir}`,
      );
    } else if (refused && refusedHint !== null) {
      this.log.warn({ missing: absent, reason }, `${degraded}; the download was refused (${reason}): ${refusedHint}`);
    } else if (reasons.size > 0) {
      this.log.warn(
        { missing: absent, reason },
        `${degraded}; the download failed (${reason}), tried again at the next start and, with GEODB_AUTO_UPDATE=true, daily`,
      );
    }
  }

  /** Temporary folders a process killed in the middle of a download left behind. */
  private async removeStaleWork(): Promise<void> {
    const stale = (await readdir(this.options.dir)).filter((name) => name.startsWith(WORK_PREFIX));
    await Promise.all(stale.map((name) => rm(join(this.options.dir, name), { recursive: true, force: true })));
    if (stale.length > 0) this.log.info({ removed: stale }, 'removed temporary folders of an interrupted download');
  }

  async loadAll(): Promise<void> {
    for (const edition of EDITION_KEYS) await this.load(edition);
  }

  /** Reads one database from disk; a missing or corrupt file keeps whatever was loaded before. */
  async load(edition: Edition): Promise<boolean> {
    const path = this.path(edition);
    try {
      const before = await stat(path);
      const buffer = await readFile(path);
      this.install(edition, openDatabase(buffer, edition), identity(before));
      this.log.info(
        { edition: this.name(edition), build: this.readers[edition]!.metadata.buildEpoch },
        'geo database loaded',
      );
      return true;
    } catch (err) {
      // A missing file is reported by bootstrap (once, with the fix) or is an operator's rename in progress.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        this.log.debug({ edition: this.name(edition) }, 'geo database file missing');
      } else this.log.error({ edition: this.name(edition), err }, 'geo database could not be loaded');
      return false;
    }
  }

  private install(edition: Edition, reader: Reader<CityResponse> | Reader<AsnResponse>, from: string): void {
    (this.readers as Record<Edition, unknown>)[edition] = reader;
    this.loadedFrom[edition] = from;
    this.lastAttemptFailed.delete(edition);
  }

  /** The scheduled check: downloads each edition whose upstream copy is newer than the local file. Never throws. */
  checkForUpdates(): Promise<void> {
    this.running = this.running.then(async () => {
      for (const edition of EDITION_KEYS) {
        try {
          if (await this.upstreamIsNewer(edition)) await this.download(edition, Date.now() + this.capMs);
        } catch (err) {
          this.lastAttemptFailed.add(edition);
          const reason = expectedFailure(err, {
            log: this.log,
            step: 'geo database update',
            fields: { edition: this.name(edition) },
          });
          if (reason) {
            this.log.warn(
              { edition: this.name(edition), reason },
              `geo database update failed (${reason}); the current database stays`,
            );
          }
        }
      }
    });
    return this.running;
  }

  /** Resolves when the update in progress, if any, has finished. */
  idle(): Promise<void> {
    return this.running;
  }

  private async upstreamIsNewer(edition: Edition): Promise<boolean> {
    const local = await stat(this.path(edition)).catch(() => undefined);
    if (!local) return true;
    return this.source.isNewer(edition, local, Date.now() + this.capMs);
  }

  /**
   * Fetches the edition into a temporary folder beside the database, checks
   * that it opens as the right database, then renames it over the old file
   * (atomic on one filesystem) and swaps the reader in memory.
   */
  async download(edition: Edition, deadline: number): Promise<void> {
    const name = this.name(edition);
    await mkdir(this.options.dir, { recursive: true });
    const work = join(this.options.dir, `${WORK_PREFIX}${name}-${randomBytes(6).toString('hex')}`);
    await mkdir(work);
    try {
      const { file, releasedAt } = await this.source.fetch(edition, work, deadline);
      const reader = openDatabase(await readFile(file), edition);
      if (releasedAt) await utimes(file, new Date(), releasedAt);
      await rename(file, this.path(edition));
      this.install(edition, reader, identity(await stat(this.path(edition))));
      this.log.info({ edition: name, build: reader.metadata.buildEpoch }, 'geo database downloaded and swapped in');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /** Watches the folder so a database an operator replaces by hand is reloaded. */
  startWatcher(): void {
    if (this.watcher) return;
    try {
      this.watcher = watch(this.options.dir, { persistent: false }, (_event, filename) => {
        for (const edition of EDITION_KEYS) {
          if (filename && filename !== `${this.name(edition)}.mmdb`) continue;
          clearTimeout(this.debounce.get(edition));
          this.debounce.set(
            edition,
            setTimeout(() => void this.reloadIfChanged(edition), WATCH_DEBOUNCE_MS),
          );
        }
      });
      this.watcher.on('error', (err) => this.log.error({ err }, 'geo database watcher failed'));
    } catch (err) {
      this.log.error({ err, dir: this.options.dir }, 'geo database watcher could not start');
    }
  }

  private async reloadIfChanged(edition: Edition): Promise<void> {
    this.debounce.delete(edition);
    const now = await stat(this.path(edition)).catch(() => undefined);
    if (!now || identity(now) === this.loadedFrom[edition]) return;
    this.log.info({ edition: this.name(edition) }, 'geo database file changed; reloading');
    await this.load(edition);
  }

  /** GEODB_AUTO_UPDATE: the first check 60 s after start, then one every 24 hours. */
  startAutoUpdate(): void {
    this.updates.start();
  }

  stop(): void {
    this.updates.stop();
    this.watcher?.close();
    this.watcher = undefined;
    for (const timer of this.debounce.values()) clearTimeout(timer);
    this.debounce.clear();
  }
}

function identity(s: { ino: number; size: number; mtimeMs: number }): string {
  return `${s.ino}:${s.size}:${s.mtimeMs}`;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
