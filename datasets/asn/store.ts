import { EventEmitter } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import type { Upstream } from '../../lib/upstream.js';
import { redactUrl } from '../../lib/logger.js';
import { byteCap } from '../../lib/byte-cap.js';
import { announcedBytes, downloadProgress } from '../../lib/download-progress.js';
import type { DatasetStatus } from '../../operations/dataset-status.js';
import { parseAsRel, type AsGraph } from './graph.js';
import { parseAsOrg, type AsOrgs } from './orgs.js';
import { AUTO_UPDATE, PeriodicCheck } from '../../lib/periodic-check.js';
import { UpstreamError, expectedFailure } from '../../lib/upstream-failure.js';

export type DatasetKind = 'relationships' | 'organisations';
const KIND_NAMES: Record<DatasetKind, string> = {
  relationships: 'AS relationships',
  organisations: 'AS organisations',
};
const DEGRADED_WITHOUT: Record<DatasetKind, string> = {
  relationships: '/api/asn-connectivity has no graph and /api/asn-radar no local relationship fallback',
  organisations: 'AS names come from the routing registry instead',
};

interface KindSpec {
  file: string;
  listing: string;
  /** Matches a snapshot's file name in the listing page; group 1 is its date. */
  pattern: RegExp;
  /** Imported on the first download: most starts download nothing. */
  decompress: () => Promise<Transform | NodeJS.ReadWriteStream>;
  parse: (stream: Readable) => Promise<AsGraph | AsOrgs>;
  size: (data: AsGraph | AsOrgs) => number;
}

const CAIDA = 'https://publicdata.caida.org/datasets';

const KINDS: Record<DatasetKind, KindSpec> = {
  relationships: {
    file: 'as-rel2.txt',
    listing: `${CAIDA}/as-relationships/serial-2/`,
    pattern: /(\d{8})\.as-rel2\.txt\.bz2/g,
    decompress: async () => (await import('unbzip2-stream')).default(),
    parse: parseAsRel,
    size: (d) => (d as AsGraph).linkCount,
  },
  organisations: {
    file: 'as-org2info.txt',
    listing: `${CAIDA}/as-organizations/`,
    pattern: /(\d{8})\.as-org2info\.txt\.gz/g,
    decompress: async () => createGunzip(),
    parse: parseAsOrg,
    size: (d) => (d as AsOrgs).size,
  },
};

/** The spec's cap on a start-up download. */
const BOOT_DOWNLOAD_MS = 5 * 60 * 1000;
// A replacement with fewer than half the entries of the snapshot it replaces
// is taken for a truncated download, not for a shrinking Internet.
const MIN_SIZE_RATIO = 0.5;
// Parsing works one read chunk at a time between yields; 16 KiB keeps each
// turn to a millisecond or two even before the parser is optimised.
const READ_CHUNK = 16 * 1024;
// Both snapshots are about 3 MB packed and 15–20 MB unpacked; far past that, a
// download (or what it unpacks to) is refused before it fills the disk.
const MAX_PACKED_BYTES = 64 * 1024 * 1024;
const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;
const DOWNLOAD_SUFFIX = '.download';
/** How often a snapshot that could not be had at start-up is tried again, until both are in. */
export const MISSING_RETRY_MS = 60 * 60 * 1000;
const SNAPSHOT_DATE = /^(\d{4})(\d{2})(\d{2})\./;

interface State {
  relationships?: string;
  organisations?: string;
}

export interface AsnDatasetsOptions {
  upstream: Upstream;
  dataDir: string;
  logger: FastifyBaseLogger;
  downloadTimeoutMs?: number;
  /** Shutdown: a download in progress is abandoned and its temporary file removed. */
  signal?: AbortSignal;
  /** How often a download logs its progress; 5 s unless a test shortens it. */
  progressEveryMs?: number;
}

/**
 * The two CAIDA snapshots the ASN routes read: kept decompressed under
 * DATA_DIR/asn, loaded into compact in-memory forms, refreshed from the
 * listing pages. A download lands in a temporary file, is parsed in full and
 * size-checked, and only then renamed over the live file and swapped in
 * memory, so a truncated or corrupt download never replaces a good snapshot.
 *
 * Emits 'checked' after every update check, finished or failed.
 */
export class AsnDatasets extends EventEmitter {
  graph: AsGraph | null = null;
  orgs: AsOrgs | null = null;
  readonly dir: string;
  private readonly upstream: Upstream;
  private readonly logger: FastifyBaseLogger;
  private readonly downloadTimeoutMs: number;
  private readonly signal?: AbortSignal;
  private checking: Promise<void> | null = null;
  private stateWrites: Promise<void> = Promise.resolve();
  private readonly updates: PeriodicCheck;
  private readonly retries: PeriodicCheck;
  private readonly progressEveryMs?: number;
  /** The date of the snapshot in use, per kind: from its file name, else the file's time. */
  private readonly updatedAt: Partial<Record<DatasetKind, Date>> = {};
  /** Kinds whose last download attempt failed. */
  private readonly lastAttemptFailed = new Set<DatasetKind>();

  constructor(options: AsnDatasetsOptions) {
    super();
    this.upstream = options.upstream;
    this.dir = join(options.dataDir, 'asn');
    this.logger = options.logger;
    this.downloadTimeoutMs = options.downloadTimeoutMs ?? BOOT_DOWNLOAD_MS;
    this.signal = options.signal;
    this.progressEveryMs = options.progressEveryMs;
    this.updates = new PeriodicCheck({
      id: 'asn-datasets-update',
      run: () => this.checkForUpdates(),
      ...AUTO_UPDATE,
      onError: (err) => this.logger.warn({ err }, 'ASN dataset update check failed'),
    });
    this.retries = new PeriodicCheck({
      id: 'asn-datasets-retry',
      run: () => this.retryMissing(),
      firstAfterMs: MISSING_RETRY_MS,
      everyMs: MISSING_RETRY_MS,
      onError: (err) => this.logger.warn({ err }, 'ASN dataset retry failed'),
    });
  }

  /** For /readyz and the metrics: whether the kind is loaded, and its snapshot's date. */
  status(kind: DatasetKind): DatasetStatus {
    if (!this.data(kind)) return { state: 'missing', updatedAt: null };
    return { state: this.lastAttemptFailed.has(kind) ? 'stale' : 'loaded', updatedAt: this.updatedAt[kind] ?? null };
  }

  private data(kind: DatasetKind): AsGraph | AsOrgs | null {
    return kind === 'relationships' ? this.graph : this.orgs;
  }

  private get missing(): DatasetKind[] {
    return (Object.keys(KINDS) as DatasetKind[]).filter((kind) => !this.data(kind));
  }

  path(kind: DatasetKind): string {
    return join(this.dir, KINDS[kind].file);
  }

  /**
   * Start-up: loads what is on disk, downloads what is missing or unreadable.
   * A snapshot still missing is said in one line, with what runs degraded, and
   * tried again every hour until it is in. Never throws.
   */
  async bootstrap(): Promise<void> {
    await this.removeStaleDownloads();
    const reasons = new Set<string>();
    await Promise.all(
      (Object.keys(KINDS) as DatasetKind[]).map(async (kind) => {
        if (await this.loadFromDisk(kind)) return;
        await this.update(kind, true).catch((err: unknown) => {
          const reason = expectedFailure(err, {
            log: this.logger,
            step: 'ASN dataset download',
            fields: { dataset: kind },
          });
          if (reason) reasons.add(reason);
        });
      }),
    );
    const missing = this.missing;
    if (missing.length === 0) return;
    const reason = [...reasons].join('; ');
    const degraded = missing.map((kind) => DEGRADED_WITHOUT[kind]).join('; ');
    this.logger.warn(
      { missing, reason },
      `${missing.map((kind) => KIND_NAMES[kind]).join(' and ')} not downloaded${reason ? ` (${reason})` : ''}: ${degraded}; tried again every hour`,
    );
    this.retries.start();
  }

  /** The hourly retry of a missing snapshot: quiet until it works, then stops. */
  private retryMissing(): Promise<void> {
    return this.oneAtATime(async () => {
      for (const kind of this.missing) {
        await this.update(kind, true).catch((err: unknown) =>
          this.logger.debug({ err, dataset: kind }, `${KIND_NAMES[kind]} still not downloaded; tried again in an hour`),
        );
      }
      if (this.missing.length === 0) this.retries.stop();
    });
  }

  /** Temporary files a process killed in the middle of a download left behind. */
  private async removeStaleDownloads(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const stale = names.filter((name) => name.endsWith(DOWNLOAD_SUFFIX));
    await Promise.all(stale.map((name) => rm(join(this.dir, name), { force: true })));
    if (stale.length > 0) this.logger.info({ removed: stale }, 'removed temporary files of an interrupted download');
  }

  /** Loads the snapshot on disk; false when there is none or it does not parse. */
  async loadFromDisk(kind: DatasetKind): Promise<boolean> {
    const file = this.path(kind);
    if (!(await exists(file))) return false;
    try {
      const started = Date.now();
      const data = await KINDS[kind].parse(createReadStream(file, { highWaterMark: READ_CHUNK }));
      const snapshot = (await this.readState())[kind];
      this.install(kind, data, snapshotDate(snapshot) ?? (await stat(file)).mtime);
      this.logger.info(
        { dataset: kind, entries: KINDS[kind].size(data), ms: Date.now() - started },
        'ASN dataset loaded',
      );
      return true;
    } catch (err) {
      this.logger.warn({ err, dataset: kind }, 'ASN dataset on disk is unreadable');
      return false;
    }
  }

  /** One update check of both snapshots, never two at once; resolves when done, never rejects. */
  checkForUpdates(): Promise<void> {
    return this.oneAtATime(async () => {
      for (const kind of Object.keys(KINDS) as DatasetKind[]) {
        await this.update(kind, false).catch((err: unknown) => {
          const reason = expectedFailure(err, {
            log: this.logger,
            step: 'ASN dataset update',
            fields: { dataset: kind },
          });
          if (reason) {
            this.logger.warn(
              { dataset: kind, reason },
              `${KIND_NAMES[kind]} update failed (${reason}); the snapshot in use stays`,
            );
          }
        });
      }
    });
  }

  /** Runs `check` unless a check or retry is running, in which case the caller shares that one: two would write the same files. */
  private oneAtATime(check: () => Promise<void>): Promise<void> {
    this.checking ??= check().finally(() => {
      this.checking = null;
      this.emit('checked');
    });
    return this.checking;
  }

  /** ASNDATA_AUTO_UPDATE: the first check a minute after start, then one every 24 hours. */
  startAutoUpdate(): void {
    this.updates.start();
  }

  /** Stops the auto-update and the retry of a missing snapshot. */
  stop(): void {
    this.updates.stop();
    this.retries.stop();
  }

  /**
   * Finds the newest snapshot in the listing and, unless it is the one in use
   * (or `force`), downloads, validates and swaps it in.
   */
  async update(kind: DatasetKind, force: boolean): Promise<boolean> {
    try {
      return await this.fetchAndInstall(kind, force);
    } catch (err) {
      this.lastAttemptFailed.add(kind);
      throw err;
    }
  }

  private async fetchAndInstall(kind: DatasetKind, force: boolean): Promise<boolean> {
    const spec = KINDS[kind];
    const newest = await this.newestName(kind);
    const state = await this.readState();
    if (!force && state[kind] === newest && (await exists(this.path(kind)))) {
      this.logger.debug({ dataset: kind, snapshot: newest }, 'ASN dataset is current');
      return false;
    }
    await mkdir(this.dir, { recursive: true });
    const tmp = `${this.path(kind)}.${process.pid}${DOWNLOAD_SUFFIX}`;
    try {
      const url = spec.listing + newest;
      const res = await this.upstream.request(url, { timeoutMs: this.downloadTimeoutMs, signal: this.signal });
      if (res.status !== 200) {
        res.body.destroy();
        throw new UpstreamError(`download of ${redactUrl(url)} answered ${res.status}`, res.status);
      }
      await pipeline(
        res.body,
        downloadProgress(this.logger, newest, announcedBytes(res.headers), this.progressEveryMs),
        byteCap(MAX_PACKED_BYTES, `${newest}`),
        await spec.decompress(),
        byteCap(MAX_UNPACKED_BYTES, `${newest} unpacked`),
        createWriteStream(tmp),
      );
      const data = await spec.parse(createReadStream(tmp, { highWaterMark: READ_CHUNK }));
      const current = kind === 'relationships' ? this.graph : this.orgs;
      if (current && spec.size(data) < spec.size(current) * MIN_SIZE_RATIO) {
        throw new Error(
          `download has ${spec.size(data)} entries against ${spec.size(current)} in use; taken as truncated`,
        );
      }
      await rename(tmp, this.path(kind));
      this.install(kind, data, snapshotDate(newest) ?? new Date());
      await this.recordState(kind, newest);
      this.logger.info({ dataset: kind, snapshot: newest, entries: spec.size(data) }, 'ASN dataset updated');
      return true;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  private install(kind: DatasetKind, data: AsGraph | AsOrgs, updatedAt: Date): void {
    if (kind === 'relationships') this.graph = data as AsGraph;
    else this.orgs = data as AsOrgs;
    this.updatedAt[kind] = updatedAt;
    this.lastAttemptFailed.delete(kind);
  }

  private async newestName(kind: DatasetKind): Promise<string> {
    const spec = KINDS[kind];
    const page = await this.upstream.text(spec.listing);
    if (page.status !== 200) throw new UpstreamError(`listing ${spec.listing} answered ${page.status}`, page.status);
    let newest: string | undefined;
    for (const match of page.text.matchAll(spec.pattern)) if (!newest || match[0] > newest) newest = match[0];
    if (!newest) throw new UpstreamError(`no snapshot named in ${spec.listing}`, page.status);
    return newest;
  }

  private get statePath(): string {
    return join(this.dir, 'state.json');
  }

  private async readState(): Promise<State> {
    try {
      return JSON.parse(await readFile(this.statePath, 'utf8')) as State;
    } catch {
      return {};
    }
  }

  /** Notes which snapshot is in use; writes are chained so the two datasets never overwrite each other's entry. */
  private recordState(kind: DatasetKind, name: string): Promise<void> {
    const write = async () => {
      const state = { ...(await this.readState()), [kind]: name };
      const tmp = `${this.statePath}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(state));
      await rename(tmp, this.statePath);
    };
    this.stateWrites = this.stateWrites.then(write, write);
    return this.stateWrites;
  }
}

/** The date a CAIDA snapshot's name starts with (`20261101.as-rel2.txt.bz2`), at midnight UTC. */
function snapshotDate(name: string | undefined): Date | undefined {
  const match = name === undefined ? null : SNAPSHOT_DATE.exec(name);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
