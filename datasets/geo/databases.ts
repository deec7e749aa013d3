import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, watch, type FSWatcher } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { basename, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Reader, type AsnResponse, type CityResponse } from 'maxmind';
import * as tar from 'tar';
import { redactUrl } from '../../lib/logger.js';
import { failureReason } from '../failure-reason.js';
import { announcedBytes, downloadProgress } from '../../lib/download-progress.js';
import type { DatasetStatus } from '../../operations/dataset-status.js';
import { UpstreamError, type Upstream, type UpstreamResponse } from '../../lib/upstream.js';
import { byteCap } from '../../lib/byte-cap.js';
import { isPublicIp } from '../../lib/network/public-address.js';
import { AUTO_UPDATE, PeriodicCheck } from '../../lib/periodic-check.js';
import { memoryCache } from '../../lib/memory-cache.js';

/** The two databases, by MaxMind edition id (also their file names under the geo folder). */
export const EDITIONS = { city: 'GeoLite2-City', asn: 'GeoLite2-ASN' } as const;
export type Edition = keyof typeof EDITIONS;
const EDITION_KEYS = Object.keys(EDITIONS) as Edition[];

// A database whose type does not say what it is would silently answer nulls;
// GeoLite2, GeoIP2 and DB-IP's compatible "lite" files all name it.
const TYPE_PATTERN: Record<Edition, RegExp> = { city: /city/i, asn: /asn/i };

const BOOT_DOWNLOAD_CAP_MS = 5 * 60 * 1000;
const WATCH_DEBOUNCE_MS = 300;
const MAX_REDIRECTS = 5;
const DOWNLOAD_HOST = 'download.maxmind.com';
// GeoLite2-City is about 35 MB packed and 60 MB unpacked; the commercial and
// DB-IP city files are about twice that. Far past those, a download is refused.
const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;
const MAX_DATABASE_BYTES = 512 * 1024 * 1024;
const MAX_CHECKSUM_BYTES = 4096;
const WORK_PREFIX = '.download-';
// Decoded records each reader keeps, so hot networks are decoded once.
const DECODED_RECORDS_MAX = 20_000;

type Readers = { city?: Reader<CityResponse>; asn?: Reader<AsnResponse> };

export interface GeoDatabasesOptions {
  /** The folder holding the .mmdb files (DATA_DIR/geo). */
  dir: string;
  upstream: Upstream;
  accountId: string;
  licenseKey: string;
  logger: FastifyBaseLogger;
  /** The cap on the boot download and on each scheduled download; 5 minutes unless a test shortens it. */
  downloadCapMs?: number;
  /** The most bytes an archive may have; 256 MiB unless a test lowers it. */
  maxArchiveBytes?: number;
  /** Shutdown: a download in progress is abandoned and its temporary folder removed. */
  signal?: AbortSignal;
  /** How often a download logs its progress; 5 s unless a test shortens it. */
  progressEveryMs?: number;
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
    throw new Error(`${EDITIONS[edition]}: unexpected database type ${JSON.stringify(reader.metadata.databaseType)}`);
  }
  reader.get('1.1.1.1');
  reader.get('2001:4860::1');
  return reader as NonNullable<Readers[E]>;
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

  constructor(private readonly options: GeoDatabasesOptions) {
    this.log = options.logger.child({ dataset: 'geo' });
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

  get hasCredentials(): boolean {
    return Boolean(this.options.accountId && this.options.licenseKey);
  }

  path(edition: Edition): string {
    return join(this.options.dir, `${EDITIONS[edition]}.mmdb`);
  }

  /** For /readyz and the metrics: whether the edition is loaded, and its build date. */
  status(edition: Edition): DatasetStatus {
    const reader = this.readers[edition];
    if (!reader) return { state: 'missing', updatedAt: null };
    return { state: this.lastAttemptFailed.has(edition) ? 'stale' : 'loaded', updatedAt: reader.metadata.buildEpoch };
  }

  /**
   * The boot step: downloads each missing database (credentials permitting,
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
    if (missing.length > 0 && this.hasCredentials) {
      const deadline = Date.now() + this.capMs;
      for (const edition of missing) {
        try {
          await this.download(edition, deadline);
        } catch (err) {
          this.lastAttemptFailed.add(edition);
          const reason = failureReason(this.log, err, 'geo database boot download', { edition: EDITIONS[edition] });
          if (reason) reasons.add(reason);
          if (err instanceof UpstreamError && (err.status === 401 || err.status === 403)) refused = true;
        }
      }
    }
    await this.loadAll();
    const absent = EDITION_KEYS.filter((edition) => !this.readers[edition]).map((edition) => EDITIONS[edition]);
    if (absent.length === 0) return;
    const degraded = `geo databases missing (${absent.join(', ')}): /api/geo-local answers 503`;
    if (!this.hasCredentials) {
      this.log.warn(
        { missing: absent, dir: this.options.dir },
        `${degraded}; set GEODB_ACCOUNT_ID and GEODB_LICENSE_KEY to download them at start, or put the .mmdb files in ${this.options.dir}`,
      );
    } else if (refused) {
      const reason = [...reasons].join('; ');
      this.log.warn(
        { missing: absent, reason },
        `${degraded}; the download was refused (${reason}): check GEODB_ACCOUNT_ID and GEODB_LICENSE_KEY`,
      );
    } else if (reasons.size > 0) {
      const reason = [...reasons].join('; ');
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
        { edition: EDITIONS[edition], build: this.readers[edition]!.metadata.buildEpoch },
        'geo database loaded',
      );
      return true;
    } catch (err) {
      // A missing file is reported by bootstrap (once, with the fix) or is an operator's rename in progress.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        this.log.debug({ edition: EDITIONS[edition] }, 'geo database file missing');
      } else this.log.error({ edition: EDITIONS[edition], err }, 'geo database could not be loaded');
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
          const reason = failureReason(this.log, err, 'geo database update', { edition: EDITIONS[edition] });
          if (reason) {
            this.log.warn(
              { edition: EDITIONS[edition], reason },
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

  private url(edition: Edition, suffix: 'tar.gz' | 'tar.gz.sha256'): string {
    return `https://${DOWNLOAD_HOST}/geoip/databases/${EDITIONS[edition]}/download?suffix=${suffix}`;
  }

  /**
   * One request to the download service. It answers with a redirect to signed
   * storage, so redirects are followed, but only over HTTPS to a public host,
   * and the credentials go to the service's own host only.
   */
  private async fetch(url: string, method: 'GET' | 'HEAD', deadline: number): Promise<UpstreamResponse> {
    const auth = 'Basic ' + Buffer.from(`${this.options.accountId}:${this.options.licenseKey}`).toString('base64');
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const target = new URL(current);
      refuseUnsafeTarget(target);
      const timeoutMs = Math.max(1, deadline - Date.now());
      const headers = target.host === DOWNLOAD_HOST ? { authorization: auth } : {};
      const res = await this.options.upstream.request(current, {
        method,
        headers,
        timeoutMs,
        signal: this.options.signal,
      });
      const location = res.headers.location;
      if (res.status >= 300 && res.status < 400 && typeof location === 'string') {
        res.body.destroy();
        current = new URL(location, current).toString();
        continue;
      }
      if (res.status !== 200) {
        res.body.destroy();
        throw new UpstreamError(`${method} ${redactUrl(url)} answered ${res.status}`, res.status);
      }
      return res;
    }
    throw new UpstreamError(`${redactUrl(url)}: too many redirects`);
  }

  private async upstreamIsNewer(edition: Edition): Promise<boolean> {
    const local = await stat(this.path(edition)).catch(() => undefined);
    if (!local) return true;
    const res = await this.fetch(this.url(edition, 'tar.gz'), 'HEAD', Date.now() + this.capMs);
    res.body.destroy();
    const remote = Date.parse(String(res.headers['last-modified'] ?? ''));
    if (Number.isNaN(remote)) {
      this.log.warn({ edition: EDITIONS[edition] }, 'geo database upstream sent no Last-Modified; not downloading');
      return false;
    }
    // File times keep whole seconds from HTTP dates; anything newer by a second or more is a new copy.
    const newer = remote - local.mtimeMs >= 1000;
    this.log.info(
      { edition: EDITIONS[edition], remote: new Date(remote), local: local.mtime, newer },
      'geo database update check',
    );
    return newer;
  }

  /**
   * Downloads the archive and its checksum into a temporary folder beside the
   * database, verifies both and that the extracted file opens as the right
   * database, then renames it over the old file (atomic on one filesystem).
   */
  async download(edition: Edition, deadline: number): Promise<void> {
    const name = EDITIONS[edition];
    await mkdir(this.options.dir, { recursive: true });
    const work = join(this.options.dir, `${WORK_PREFIX}${name}-${randomBytes(6).toString('hex')}`);
    await mkdir(work);
    try {
      const sumRes = await this.fetch(this.url(edition, 'tar.gz.sha256'), 'GET', deadline);
      const expected = /^\s*([a-f0-9]{64})\b/i.exec(await readText(sumRes, MAX_CHECKSUM_BYTES))?.[1]?.toLowerCase();
      if (!expected) throw new Error(`${name}: checksum file is not a SHA-256 sum`);

      const archive = join(work, `${name}.tar.gz`);
      const res = await this.fetch(this.url(edition, 'tar.gz'), 'GET', deadline);
      const maxArchive = this.options.maxArchiveBytes ?? MAX_ARCHIVE_BYTES;
      if (Number(res.headers['content-length']) > maxArchive) {
        res.body.destroy();
        throw new UpstreamError(`${name}: the archive is over ${maxArchive} bytes; refused`);
      }
      const lastModified = Date.parse(String(res.headers['last-modified'] ?? ''));
      const hash = createHash('sha256');
      const hashing = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      });
      const progress = downloadProgress(this.log, name, announcedBytes(res.headers), this.options.progressEveryMs);
      await pipeline(res.body, progress, byteCap(maxArchive, `${name} archive`), hashing, createWriteStream(archive));
      const actual = hash.digest('hex');
      if (actual !== expected) throw new Error(`${name}: checksum mismatch (expected ${expected}, got ${actual})`);

      let oversized = false;
      await tar.x({
        file: archive,
        cwd: work,
        strict: true,
        filter: (path, entry) => {
          if (basename(path) !== `${name}.mmdb`) return false;
          oversized ||= ('size' in entry ? entry.size : 0) > MAX_DATABASE_BYTES;
          return !oversized;
        },
      });
      if (oversized) {
        throw new UpstreamError(`${name}: the database in the archive is over ${MAX_DATABASE_BYTES} bytes; refused`);
      }
      const entries = (await readdir(work, { recursive: true })) as string[];
      const found = entries.find((entry) => basename(entry) === `${name}.mmdb`);
      if (!found) throw new Error(`${name}: archive holds no ${name}.mmdb`);
      const extracted = join(work, found);

      const reader = openDatabase(await readFile(extracted), edition);
      if (!Number.isNaN(lastModified)) await utimes(extracted, new Date(), new Date(lastModified));
      await rename(extracted, this.path(edition));
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
          if (filename && filename !== `${EDITIONS[edition]}.mmdb`) continue;
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
    this.log.info({ edition: EDITIONS[edition] }, 'geo database file changed; reloading');
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

async function readText(res: UpstreamResponse, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  await pipeline(res.body, byteCap(maxBytes, 'the checksum file'), async function* (source) {
    for await (const chunk of source) chunks.push(chunk as Buffer);
  });
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A download (or a redirect it follows) goes only to a public host over
 * HTTPS: never plain HTTP, where the credentials or the file could be read or
 * changed on the way, and never this machine or its network.
 */
function refuseUnsafeTarget(url: URL): void {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const local = host === 'localhost' || host.endsWith('.localhost') || (/^[\d.]+$|:/.test(host) && !isPublicIp(host));
  if (url.protocol !== 'https:' || local) {
    throw new UpstreamError(
      `refusing to download from ${redactUrl(`${url.protocol}//${url.host}${url.pathname}`)}: only HTTPS to a public host`,
    );
  }
}
