import { UpstreamFailure } from '../../lib/http-error.js';

/** What is kept under a report id: when it stops being readable, and the report. */
export interface StoredReport {
  expiresAt: string;
  report: unknown;
}

/**
 * Where shared reports live (REPORT_STORE): chosen once at start-up, the
 * same for the report routes and /api/configs' `reportSharing`.
 */
export interface ReportStore {
  /** Whether the store can take and give back reports now, as far as the service knows. */
  readonly ready: boolean;
  /** Writes `stored` under `id` for `ttlSeconds`; resolves only once the store confirmed the write. */
  put(id: string, stored: StoredReport, ttlSeconds: number): Promise<void>;
  /** The report stored under `id`, or undefined when it is unknown or has expired. */
  get(id: string): Promise<StoredReport | undefined>;
}

/** The answer, with 500, when the store did not take or give back a report. */
export const STORE_UNAVAILABLE = 'Report store unavailable';

/**
 * The store did not take or give back a report: answered 500. Its outage is
 * one the service expects, so it is logged as any upstream's failure: one
 * warning with its reason, no stack (plugins/failure-log.ts).
 */
export class StoreError extends UpstreamFailure {
  constructor(cause: unknown) {
    super(500, STORE_UNAVAILABLE, 'report store failed', { err: cause });
  }
}

/** A stored value's expiry has passed (or it has none): it is answered as unknown. */
export function isExpired(stored: StoredReport, now: number): boolean {
  const expires = Date.parse(stored?.expiresAt);
  return !Number.isFinite(expires) || expires <= now;
}

/** A stored value read back as text; one that is not JSON is the store's failure, not the visitor's. */
export function parseStored(text: string): StoredReport {
  try {
    return JSON.parse(text) as StoredReport;
  } catch {
    throw new StoreError(new Error('Report store holds a value that is not JSON'));
  }
}
