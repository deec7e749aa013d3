import type { FastifyBaseLogger } from 'fastify';
import type { Upstream } from '../lib/upstream.js';
import { PeriodicCheck } from '../lib/periodic-check.js';
import type { DatasetStatus } from '../operations/dataset-status.js';

export const REFRESH_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * A table shipped with the code and replaced by its source's current copy on
 * a refresh: at once on start(), then every 24 hours, until stop(). What a
 * refresh keeps when it fails is the subclass's to say.
 */
export abstract class DailyRefreshed {
  /** Whether the last refresh failed, so the table in use is older than its source's (`stale`). */
  protected lastAttemptFailed = false;
  private readonly refreshes: PeriodicCheck;

  /** `what` names the table in the log line of a refresh that throws. */
  constructor(
    protected readonly upstream: Upstream,
    protected readonly logger: FastifyBaseLogger,
    id: string,
    what: string,
  ) {
    this.refreshes = new PeriodicCheck({
      id,
      run: () => this.refresh(),
      firstAfterMs: 0,
      everyMs: REFRESH_INTERVAL_MS,
      onError: (err) => logger.warn({ err }, `${what} refresh failed`),
    });
  }

  abstract refresh(): Promise<void>;

  /** For /readyz and the metrics. */
  abstract status(): DatasetStatus;

  start(): void {
    this.refreshes.start();
  }

  stop(): void {
    this.refreshes.stop();
  }
}
