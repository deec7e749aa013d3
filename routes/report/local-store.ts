import { mkdir, open as openFile, readdir, rm, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import pRetry from 'p-retry';
import { findLogDamage, type LogDamage } from './local-log.js';
import {
  isExpired,
  parseStored,
  STORE_FULL,
  STORE_UNAVAILABLE,
  StoreError,
  StoreRefusal,
  type ReportStore,
  type StoreDetails,
  type StoredReport,
} from './store.js';

// Two kinds of keys: the report itself, and an index by expiry, so a sweep
// reads only what has expired instead of every report (each up to 256 KB).
const REPORT = 'report:';
const EXPIRY = 'expiry:';
// Milliseconds since 1970 padded to one width, so keys sort in time order.
const reportKey = (id: string) => `${REPORT}${id}`;
const expiryKey = (at: number, id: string) => `${EXPIRY}${String(at).padStart(15, '0')}:${id}`;
/** Expired index entries removed per batch, so a sweep after a long stop never builds one huge batch. */
const SWEEP_BATCH = 1000;
/** The first retry of writes after a failure; each later one waits twice as long, up to `retryMaxMs`. */
const FIRST_RETRY_MS = 1000;
/**
 * Room asked for beyond the log files before writes are tried again: reopening
 * rewrites the log into a table (about its size), and a new report needs up to 256 KB.
 */
const HEADROOM_BYTES = 1024 * 1024;
/** A file of this size is written and synced in the folder to prove that a write goes through. */
const PROBE_BYTES = 64 * 1024;
const PROBE_FILE = 'write-probe.tmp';

/** The logger the store tells its outages, recoveries and repairs to (the app's pino logger). */
export interface StoreLog {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
}

export interface LocalStoreOptions {
  /** The clock expiry is judged by. */
  now?: () => number;
  /** The longest wait between two tries to write again after a failure (REPORT_STORE_RETRY_MAX_MS). */
  retryMaxMs?: number;
  log?: StoreLog;
}

/** Writes are refused since a write failed: why, and since when. */
interface Outage {
  reason: string;
  full: boolean;
  since: number;
}

/** Another process holds the database: LevelDB lets one process at a time open it. */
export class StoreInUse extends Error {}

const silent: StoreLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
/** LevelDB's own error under classic-level's "Database failed to open". */
const causeOf = (err: unknown): { code?: string; message: string } => {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return { code: cause?.code ?? (err as { code?: string })?.code, message: cause?.message ?? messageOf(err) };
};
const isFull = (reason: string) => /No space left on device|Disk quota exceeded|ENOSPC|EDQUOT/i.test(reason);

/**
 * Reports on this machine's disk (REPORT_STORE=local): a LevelDB database in
 * `dir` (DATA_DIR/reports), which checksums what it writes, so a damaged file
 * is an error to report rather than a value to trust. A write is synced to
 * disk before it counts, so neither a restart nor a crash loses a link given
 * out. Expired reports are removed when read and by sweep().
 *
 * A failed write (a full disk) starts an outage: new reports are refused
 * (507 on a full disk) while stored ones are still read, and writes are tried
 * again in the background, with a growing wait, until the disk takes them;
 * one line is logged when it starts and one when it ends. At open, a log file
 * cut short is found, the database repaired with LevelDB's own repair, and
 * what was lost logged.
 */
export class LocalReportStore implements ReportStore {
  private readonly db: ClassicLevel<string, string>;
  private readonly now: () => number;
  private readonly retryMaxMs: number;
  private readonly log: StoreLog;
  private outage: Outage | undefined;
  private retries: AbortController | undefined;
  /** What the repair at open found and lost, for /readyz. */
  private repaired: string | undefined;
  /** Why the database did not open at start-up, for /readyz. */
  private unopened: string | undefined;

  constructor(
    readonly dir: string,
    options: LocalStoreOptions = {},
  ) {
    this.db = new ClassicLevel(dir);
    this.now = options.now ?? Date.now;
    this.retryMaxMs = options.retryMaxMs ?? 60_000;
    this.log = options.log ?? silent;
  }

  /**
   * Opens the database, creating it and its folder when missing, and repairs
   * it when it is damaged. Rejects with StoreInUse when another process holds
   * it, and with the reason for anything else it cannot overcome; a full disk
   * is an outage retried in the background, not a rejection.
   */
  async open(): Promise<void> {
    try {
      await this.openOrRepair();
    } catch (err) {
      this.unopened =
        err instanceof StoreInUse
          ? 'the reports folder is in use by another process, so reports are neither taken nor given back here'
          : `the database cannot open (${causeOf(err).message}), so reports are neither taken nor given back`;
      throw err;
    }
  }

  private async openOrRepair(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    // Read before LevelDB opens the logs: it drops a damaged tail silently and rewrites the rest.
    const damage = await findLogDamage(this.dir);
    try {
      await this.db.open();
    } catch (err) {
      const cause = causeOf(err);
      if (cause.code === 'LEVEL_LOCKED') throw new StoreInUse(cause.message);
      if (isFull(cause.message)) return this.beginOutage(cause.message);
      if (cause.code !== 'LEVEL_CORRUPTION' && !/No such file or directory/.test(cause.message)) throw err;
      await this.repair(`the database would not open (${cause.message})`);
      return;
    }
    // Opened, so this process holds the folder: repairing it cannot disturb another.
    if (damage.length > 0) await this.repair(describeDamage(damage), damage);
  }

  get ready(): boolean {
    return this.db.status === 'open' && !this.outage;
  }

  get readable(): boolean {
    return this.db.status === 'open';
  }

  get refusal(): StoreRefusal | undefined {
    return this.outage?.full ? new StoreRefusal(507, STORE_FULL) : undefined;
  }

  get details(): StoreDetails {
    const problem = this.outage ? this.problem(this.outage) : this.unopened;
    return {
      readable: this.readable,
      ...(problem && { problem }),
      ...(this.repaired && { repaired: this.repaired }),
    };
  }

  async put(id: string, stored: StoredReport, ttlSeconds: number): Promise<void> {
    if (this.outage) throw this.refuse();
    try {
      await this.db.batch(
        [
          { type: 'put', key: reportKey(id), value: JSON.stringify(stored) },
          { type: 'put', key: expiryKey(this.now() + ttlSeconds * 1000, id), value: '' },
        ],
        { sync: true },
      );
    } catch (err) {
      // Writes already under way when the outage began fail too; they join it.
      if (!this.outage) this.beginOutage(causeOf(err).message);
      throw this.refuse();
    }
  }

  async get(id: string): Promise<StoredReport | undefined> {
    let text: string | undefined;
    try {
      text = await this.db.get(reportKey(id));
    } catch (err) {
      throw new StoreError(this.withRemedy(err));
    }
    if (text === undefined) return undefined;
    const stored = parseStored(text);
    if (!isExpired(stored, this.now())) return stored;
    // Its index entry goes at the next sweep, which also retries this removal should it fail.
    if (!this.outage) await this.db.del(reportKey(id)).catch(() => undefined);
    return undefined;
  }

  async delete(id: string): Promise<void> {
    if (this.outage) throw this.refuse();
    // Its index entry goes at the next sweep, which finds nothing left under it.
    try {
      await this.db.del(reportKey(id), { sync: true });
    } catch (err) {
      throw new StoreError(this.withRemedy(err));
    }
  }

  /**
   * Removes every report whose expiry has passed; the number removed. Nothing
   * during an outage: removing is writing. A value written again under the
   * same id since (an address watch's) has a later index entry and stays.
   */
  async sweep(): Promise<number> {
    let removed = 0;
    while (this.ready) {
      const keys = await this.db.keys({ gte: EXPIRY, lt: expiryKey(this.now(), ''), limit: SWEEP_BATCH }).all();
      if (keys.length === 0) return removed;
      const ids = keys.map((key) => key.slice(key.lastIndexOf(':') + 1));
      const values = await this.db.getMany(ids.map(reportKey));
      const gone = ids.filter((_id, i) => values[i] !== undefined && this.hasExpired(values[i]!));
      await this.db.batch([
        ...keys.map((key) => ({ type: 'del' as const, key })),
        ...gone.map((id) => ({ type: 'del' as const, key: reportKey(id) })),
      ]);
      removed += gone.length;
    }
    return removed;
  }

  /** A value that cannot be read is removed as expired: nothing could ever give it back. */
  private hasExpired(text: string): boolean {
    try {
      return isExpired(JSON.parse(text) as StoredReport, this.now());
    } catch {
      return true;
    }
  }

  async close(): Promise<void> {
    this.retries?.abort();
    await this.db.close();
  }

  /** The refusal a write meets during the outage: 507 on a full disk, 500 for any other failure (both logged once). */
  private refuse(): StoreRefusal {
    return this.refusal ?? new StoreRefusal(500, STORE_UNAVAILABLE);
  }

  private beginOutage(reason: string): void {
    const outage: Outage = { reason, full: isFull(reason), since: Date.now() };
    this.outage = outage;
    // A disk full at start-up leaves the database closed: nothing is read until a try opens it.
    const reads = this.readable ? 'stored ones are still read' : 'stored ones cannot be read until it opens';
    this.log.warn(
      { dir: this.dir, reason, retryMaxMs: this.retryMaxMs },
      outage.full
        ? `REPORT_STORE=local: the disk is full, so new reports are refused (507) while ${reads}; free space ` +
            'on the disk of DATA_DIR: writes resume by themselves, tried again within REPORT_STORE_RETRY_MAX_MS'
        : `REPORT_STORE=local: a write to the report store failed, so new reports are refused (500) while ${reads}; ` +
            'check free space and that the service may write DATA_DIR: writes resume by themselves, tried ' +
            'again within REPORT_STORE_RETRY_MAX_MS',
    );
    const retries = new AbortController();
    this.retries = retries;
    pRetry(() => this.tryWrites(), {
      retries: Number.POSITIVE_INFINITY,
      factor: 2,
      minTimeout: Math.min(FIRST_RETRY_MS, this.retryMaxMs),
      maxTimeout: this.retryMaxMs,
      signal: retries.signal,
      unref: true,
      onFailedAttempt: ({ error }) => {
        outage.reason = causeOf(error).message;
      },
    }).then(
      () => this.endOutage(outage),
      () => undefined, // aborted: the store is closing
    );
  }

  private endOutage(outage: Outage): void {
    this.outage = undefined;
    this.log.info(
      { dir: this.dir, outageSeconds: Math.round((Date.now() - outage.since) / 1000) },
      'REPORT_STORE=local: the report store takes new reports again',
    );
  }

  /**
   * One try at writing again: enough room for the reopen, a probe file that
   * really reaches the disk, then the database reopened, which clears
   * LevelDB's refusal after a failed write and starts a clean log (appending
   * after a torn record would lose what follows it at the next start). The
   * checks come first because a reopen that fails leaves the database closed,
   * and the stored reports unreadable until the next try.
   */
  private async tryWrites(): Promise<void> {
    const logBytes = await this.logBytes();
    const { bavail, bsize } = await statfs(this.dir);
    const free = bavail * bsize;
    if (free < logBytes + HEADROOM_BYTES) {
      throw new Error(`No space left on device: ${free} bytes free, ${logBytes + HEADROOM_BYTES} needed`);
    }
    const probe = join(this.dir, PROBE_FILE);
    try {
      const file = await openFile(probe, 'w');
      try {
        await file.write(Buffer.alloc(PROBE_BYTES));
        await file.sync();
      } finally {
        await file.close();
      }
    } finally {
      await rm(probe, { force: true });
    }
    if (this.db.status === 'open') await this.db.close();
    await this.db.open();
  }

  /** The size of LevelDB's write-ahead logs, which a reopen rewrites into a table. */
  private async logBytes(): Promise<number> {
    const logs = (await readdir(this.dir)).filter((name) => name.endsWith('.log'));
    const sizes = await Promise.all(logs.map((name) => stat(join(this.dir, name)).then((s) => s.size)));
    return sizes.reduce((sum, size) => sum + size, 0);
  }

  /** LevelDB's repair: every log and table salvaged into a new manifest, logged with what was lost. */
  private async repair(what: string, damage: LogDamage[] = []): Promise<void> {
    if (this.db.status === 'open') await this.db.close();
    await ClassicLevel.repair(this.dir);
    await this.db.open();
    const reports = (await this.db.keys({ gte: REPORT, lt: `${REPORT}\uffff` }).all()).length;
    this.repaired = `${what}; repaired with LevelDB's repair, ${reports} reports readable`;
    this.log.error(
      {
        dir: this.dir,
        reports,
        ...(damage.length > 0 && { damage }),
      },
      `REPORT_STORE=local: the report store was damaged: ${what}; it was repaired at start-up and holds ` +
        `${reports} reports; check the disk of DATA_DIR, and restore DATA_DIR/reports from a backup to get back what was lost`,
    );
  }

  private problem(outage: Outage): string {
    const reads = this.readable ? 'stored reports are still read' : 'stored reports cannot be read either';
    return outage.full
      ? `the disk is full, so new reports are refused; ${reads}; writes are tried again until it has room`
      : `writes fail (${outage.reason}), so new reports are refused; ${reads}; writes are tried again`;
  }

  /** The store's error with what the operator can do about it, for the one warning it becomes. */
  private withRemedy(err: unknown): Error {
    return new Error(
      `${messageOf(err)} (REPORT_STORE=local in ${this.dir}: check free space and that the service may write there)`,
    );
  }
}

/** In plain words: which log was cut where, what it kept and which report was the first lost. */
function describeDamage(damage: LogDamage[]): string {
  return damage
    .map(
      (d) =>
        `log ${d.file} breaks off at byte ${d.at} of ${d.size}: the ${d.reportsKept} reports written to it before ` +
        'were kept, those written after are lost' +
        (d.firstLostReport ? `, the first of them ${d.firstLostReport}` : ''),
    )
    .join('; ');
}
