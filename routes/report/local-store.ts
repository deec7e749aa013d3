import { mkdir } from 'node:fs/promises';
import { ClassicLevel } from 'classic-level';
import { isExpired, parseStored, StoreError, type ReportStore, type StoredReport } from './store.js';

// Two kinds of keys: the report itself, and an index by expiry, so a sweep
// reads only what has expired instead of every report (each up to 256 KB).
const REPORT = 'report:';
const EXPIRY = 'expiry:';
// Milliseconds since 1970 padded to one width, so keys sort in time order.
const reportKey = (id: string) => `${REPORT}${id}`;
const expiryKey = (at: number, id: string) => `${EXPIRY}${String(at).padStart(15, '0')}:${id}`;
/** Expired index entries removed per batch, so a sweep after a long stop never builds one huge batch. */
const SWEEP_BATCH = 1000;

/**
 * Reports on this machine's disk (REPORT_STORE=local): a LevelDB database in
 * `dir` (DATA_DIR/reports), which checksums what it writes, so a damaged file
 * is an error to report rather than a value to trust. A write is synced to
 * disk before it counts, so neither a restart nor a crash loses a link given
 * out. Expired reports are removed when read and by sweep().
 */
export class LocalReportStore implements ReportStore {
  private db: ClassicLevel<string, string>;
  /**
   * A write failed (a full disk, say): LevelDB refuses every later write until
   * it is opened again, so the next write reopens it first and succeeds once
   * the disk has room again.
   */
  private writeFailed = false;

  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.db = new ClassicLevel(dir);
  }

  /** Opens the database, creating it and its folder when missing; rejects with the reason it cannot. */
  async open(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await this.db.open();
  }

  get ready(): boolean {
    return this.db.status === 'open';
  }

  async put(id: string, stored: StoredReport, ttlSeconds: number): Promise<void> {
    try {
      if (this.writeFailed) {
        // Cleared first, so writes arriving meanwhile do not reopen it again.
        this.writeFailed = false;
        await this.reopen();
      }
      await this.db.batch(
        [
          { type: 'put', key: reportKey(id), value: JSON.stringify(stored) },
          { type: 'put', key: expiryKey(this.now() + ttlSeconds * 1000, id), value: '' },
        ],
        { sync: true },
      );
    } catch (err) {
      this.writeFailed = true;
      throw new StoreError(this.withRemedy(err));
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
    await this.db.del(reportKey(id)).catch(() => undefined);
    return undefined;
  }

  /** Removes every report whose expiry has passed; the number removed. */
  async sweep(): Promise<number> {
    let removed = 0;
    for (;;) {
      const keys = await this.db.keys({ gte: EXPIRY, lt: expiryKey(this.now(), ''), limit: SWEEP_BATCH }).all();
      if (keys.length === 0) return removed;
      await this.db.batch(
        keys.flatMap((key) => [
          { type: 'del' as const, key },
          { type: 'del' as const, key: reportKey(key.slice(key.lastIndexOf(':') + 1)) },
        ]),
      );
      removed += keys.length;
    }
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  private async reopen(): Promise<void> {
    await this.db.close();
    await this.db.open();
  }

  /** The store's error with what the operator can do about it, for the one warning it becomes. */
  private withRemedy(err: unknown): Error {
    const reason = err instanceof Error ? err.message : String(err);
    return new Error(
      `${reason} (REPORT_STORE=local in ${this.dir}: check free space and that the service may write there)`,
    );
  }
}
